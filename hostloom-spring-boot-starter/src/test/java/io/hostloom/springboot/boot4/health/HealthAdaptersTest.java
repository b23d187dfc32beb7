package io.hostloom.springboot.boot4.health;

import io.hostloom.springboot.health.HealthAdaptersContract;
import org.springframework.boot.health.contributor.CompositeHealthContributor;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;

/** The Boot 4 health adapters pass the shared contract. */
class HealthAdaptersTest extends HealthAdaptersContract {

  @Override
  protected Class<?> healthAutoConfiguration() {
    return HostloomHealthAutoConfiguration.class;
  }

  @Override
  protected Class<?> leadershipHealthAutoConfiguration() {
    return LeadershipHealthAutoConfiguration.class;
  }

  @Override
  protected Class<?> indicatorType() {
    return HostloomHealthIndicator.class;
  }

  @Override
  protected Reading health(Object indicator) {
    return read(((HostloomHealthIndicator) indicator).health());
  }

  @Override
  protected Reading roleHealth(Object leadershipContributor, String role) {
    CompositeHealthContributor composite = (CompositeHealthContributor) leadershipContributor;
    return read(((HealthIndicator) composite.getContributor(role)).health());
  }

  private static Reading read(Health h) {
    return new Reading(h.getStatus().getCode(), h.getDetails());
  }
}
