package io.hostloom.micronaut;

import io.hostloom.micronaut.health.HostLoomHealthIndicator;
import io.micronaut.management.health.indicator.HealthResult;
import java.time.Duration;
import java.util.Map;
import reactor.core.publisher.Mono;

/** Asks the health indicator as micronaut-management's endpoint does, and waits for the answer. */
final class Health {
  private Health() {}

  static HealthResult check(HostLoomHealthIndicator indicator) {
    return Mono.from(indicator.getResult()).block(Duration.ofSeconds(30));
  }

  @SuppressWarnings("unchecked") // the indicator's details are its Map<String, Object>
  static Map<String, Object> details(HealthResult result) {
    return (Map<String, Object>) result.getDetails();
  }
}
