package io.hostloom.springboot.health;

import io.hostloom.locking.spi.BackendHealth;
import io.hostloom.locking.spi.BackendHealthProbe;
import io.hostloom.locking.spi.LockBackend;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.springframework.boot.actuate.health.Health;
import org.springframework.boot.actuate.health.HealthIndicator;

/**
 * Readiness of the lock store: mirrors the backend's {@link BackendHealthProbe} when it has one; UP
 * with an explanation when it has none; UP with "disabled" when locking is disabled (single
 * instance mode needs no store). Never throws: a probe that fails or does not answer within {@link
 * #TIMEOUT} is DOWN.
 */
public final class HostloomHealthIndicator implements HealthIndicator {
  /** The longest wait for a probe's answer (probes bound themselves; this is a backstop). */
  static final Duration TIMEOUT = Duration.ofSeconds(5);

  private final boolean enabled;
  private final Optional<LockBackend> backend;

  /**
   * @param enabled {@code hostloom.locking.enabled}
   * @param backend the lock store, when there is one
   */
  public HostloomHealthIndicator(boolean enabled, Optional<LockBackend> backend) {
    this.enabled = enabled;
    this.backend = backend;
  }

  @Override
  public Health health() {
    if (backend.isEmpty()) {
      return enabled
          ? Health.down().withDetail("store", "none").build()
          : Health.up().withDetail("locking", "disabled").build();
    }
    LockBackend b = backend.get();
    Health.Builder up = enabled ? Health.up() : Health.up().withDetail("locking", "disabled");
    if (!(b instanceof BackendHealthProbe probe)) {
      return up.withDetail("store", b.name())
          .withDetail("probe", "the store has no health probe; assumed reachable")
          .build();
    }
    BackendHealth h;
    try {
      h = probe.checkHealth().get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return Health.down().withDetail("store", b.name()).withDetail("probe", "interrupted").build();
    } catch (ExecutionException | TimeoutException | RuntimeException e) {
      return Health.down()
          .withDetail("store", b.name())
          .withDetail("probe", "no answer: " + e.getClass().getSimpleName())
          .build();
    }
    Health.Builder result = h.healthy() ? up : Health.down();
    return result.withDetail("store", b.name()).withDetail("probe", h.description()).build();
  }
}
