package io.hostloom.springboot.boot3.health;

import io.hostloom.springboot.health.HostloomHealthCheck;
import org.springframework.boot.actuate.health.Health;
import org.springframework.boot.actuate.health.HealthIndicator;

/**
 * The {@code hostloom} health indicator on Spring Boot 3: the Boot-neutral {@link
 * HostloomHealthCheck} in Boot 3's health types. Never throws; blocks at most {@link
 * HostloomHealthCheck#TIMEOUT}.
 */
public final class HostloomHealthIndicator implements HealthIndicator {
  private final HostloomHealthCheck check;

  public HostloomHealthIndicator(HostloomHealthCheck check) {
    this.check = check;
  }

  @Override
  public Health health() {
    HostloomHealthCheck.Result r = check.check();
    return (r.up() ? Health.up() : Health.down()).withDetails(r.details()).build();
  }
}
