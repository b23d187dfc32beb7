package io.hostloom.springboot;

import static org.assertj.core.api.Assertions.assertThat;

import io.hostloom.locking.DistributedLock;
import io.hostloom.locking.LockingOptions;
import org.junit.jupiter.api.Test;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.logging.LoggingSystem;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * What a starter's users get from its dependencies alone (each starter runs this with only its own
 * dependencies and the test libraries): an application that reads {@code application.yml}
 * (SnakeYAML) and logs through Logback, both from {@code spring-boot-starter}.
 */
public abstract class StarterDependenciesContract {

  @SpringBootConfiguration
  @EnableAutoConfiguration
  static class App {}

  @Test
  void anApplicationWithOnlyTheStarterReadsYamlAndLogsThroughLogback() {
    try (ConfigurableApplicationContext context =
        new SpringApplicationBuilder(App.class)
            .web(WebApplicationType.NONE)
            .properties("spring.config.name=hostloom-starter-check", "spring.main.banner-mode=off")
            .run()) {
      assertThat(context.getBean(DistributedLock.class).options().map(LockingOptions::namespace))
          .hasValue("from-yaml");
      assertThat(LoggingSystem.get(getClass().getClassLoader()).getClass().getName())
          .isEqualTo("org.springframework.boot.logging.logback.LogbackLoggingSystem");
    }
  }
}
