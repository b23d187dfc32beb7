package io.hostloom.springboot.boot3.health;

import io.hostloom.springboot.health.HostLoomHealthCheck;
import org.springframework.boot.actuate.health.Health;
import org.springframework.boot.actuate.health.HealthIndicator;

/**
 * The {@code hostloom} health indicator on Spring Boot 3: the Boot-neutral {@link
 * HostLoomHealthCheck} in Boot 3's health types. Never throws; blocks at most {@link
 * HostLoomHealthCheck#TIMEOUT}.
 */
public final class HostLoomHealthIndicator implements HealthIndicator {
  private final HostLoomHealthCheck check;

  public HostLoomHealthIndicator(HostLoomHealthCheck check) {
    this.check = check;
  }

  @Override
  public Health health() {
    HostLoomHealthCheck.Result r = check.check();
    return (r.up() ? Health.up() : Health.down()).withDetails(r.details()).build();
  }
}
