package io.hostloom.springboot.boot4.health;

import io.hostloom.locking.spi.LockBackend;
import io.hostloom.springboot.HostLoomAutoConfiguration;
import io.hostloom.springboot.HostLoomSettings;
import io.hostloom.springboot.health.HostLoomHealthCheck;
import java.util.Optional;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.health.autoconfigure.contributor.ConditionalOnEnabledHealthIndicator;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.context.annotation.Bean;

/**
 * The {@code hostloom} health indicator (bean {@code hostloomHealthIndicator}) on Spring Boot 4,
 * when {@code spring-boot-health} (brought by Actuator) is on the classpath and {@code
 * management.health.hostloom.enabled} is not false. Add it to the readiness group: {@code
 * management.endpoint.health.group.readiness.include=readinessState,hostloom}. It is never meant
 * for liveness: a backend outage should stop traffic, not restart the instance.
 */
@AutoConfiguration(after = HostLoomAutoConfiguration.class)
@ConditionalOnClass(HealthIndicator.class)
@ConditionalOnEnabledHealthIndicator("hostloom")
public class HostLoomHealthAutoConfiguration {

  @Bean
  @ConditionalOnMissingBean(name = "hostloomHealthIndicator")
  HostLoomHealthIndicator hostloomHealthIndicator(
      HostLoomSettings settings, ObjectProvider<LockBackend> backend) {
    return new HostLoomHealthIndicator(
        new HostLoomHealthCheck(
            settings.lockingOptions().enabled(), Optional.ofNullable(backend.getIfUnique())));
  }
}
