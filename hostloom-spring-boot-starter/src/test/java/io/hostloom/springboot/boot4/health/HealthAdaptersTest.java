package io.hostloom.springboot.boot4.health;

import io.hostloom.springboot.health.HealthAdaptersContract;

/** The Boot 4 health adapters pass the shared contract. */
class HealthAdaptersTest extends HealthAdaptersContract {
  HealthAdaptersTest() {
    super(
        HostLoomHealthAutoConfiguration.class,
        LeadershipHealthAutoConfiguration.class,
        HostLoomHealthIndicator.class);
  }
}
