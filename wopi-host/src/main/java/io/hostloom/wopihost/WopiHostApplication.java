package io.hostloom.wopihost;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;

/**
 * The HostLoom WOPI host: WOPI files endpoints over a local folder, with locks in the store chosen
 * by {@code hostloom.backend} (in-memory by default), so several instances sharing a store agree on
 * who edits each file.
 */
@SpringBootApplication
@ConfigurationPropertiesScan
public class WopiHostApplication {

  public static void main(String[] args) {
    SpringApplication.run(WopiHostApplication.class, args);
  }
}
