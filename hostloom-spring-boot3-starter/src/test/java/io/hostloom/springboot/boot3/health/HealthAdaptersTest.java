package io.hostloom.springboot.boot3.health;

import io.hostloom.springboot.health.HealthAdaptersContract;

/** The Boot 3.5 health adapters pass the shared contract. */
class HealthAdaptersTest extends HealthAdaptersContract {
  HealthAdaptersTest() {
    super(
        HostLoomHealthAutoConfiguration.class,
        LeadershipHealthAutoConfiguration.class,
        HostLoomHealthIndicator.class);
  }
}
