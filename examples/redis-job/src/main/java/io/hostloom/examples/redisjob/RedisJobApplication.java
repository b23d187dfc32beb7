package io.hostloom.examples.redisjob;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/** Start several of these against one Redis: each round, exactly one of them writes the report. */
@SpringBootApplication
public class RedisJobApplication {
  public static void main(String[] args) {
    SpringApplication.run(RedisJobApplication.class, args);
  }
}
