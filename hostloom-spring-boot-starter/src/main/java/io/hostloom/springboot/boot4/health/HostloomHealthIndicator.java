package io.hostloom.springboot.boot4.health;

import io.hostloom.springboot.health.HostloomHealthCheck;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;

/**
 * The {@code hostloom} health indicator on Spring Boot 4: the Boot-neutral {@link
 * HostloomHealthCheck} in Boot 4's health types. Never throws; blocks at most {@link
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
