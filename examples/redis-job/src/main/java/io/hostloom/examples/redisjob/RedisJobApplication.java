package io.hostloom.examples.redisjob;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.scheduling.annotation.EnableScheduling;

/** Start several of these against one Redis: each report runs on one instance at a time. */
@SpringBootApplication
@EnableScheduling
public class RedisJobApplication {
  public static void main(String[] args) {
    SpringApplication.run(RedisJobApplication.class, args);
  }
}
