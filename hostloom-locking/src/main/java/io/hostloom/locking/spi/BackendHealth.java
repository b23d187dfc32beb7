package io.hostloom.locking.spi;

import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A health probe's answer. The description never contains endpoints with credentials, owner tokens
 * or keys.
 */
public record BackendHealth(boolean healthy, String description) {
  public BackendHealth {
    Objects.requireNonNull(description, "description");
  }

  public static BackendHealth healthy(String description) {
    return new BackendHealth(true, description);
  }

  public static BackendHealth unhealthy(String description) {
    return new BackendHealth(false, description);
  }

  /**
   * Asks {@code backend} for its health, for readiness checks: its {@link BackendHealthProbe}'s
   * answer, healthy ("assumed reachable") when it has no probe. Never throws and blocks at most
   * {@code timeout} (probes bound themselves; this is a backstop): a probe that fails or does not
   * answer in time is unhealthy ("no answer: " and the failure's class); an interrupt is unhealthy
   * ("interrupted") with the interrupt flag set again.
   */
  public static BackendHealth check(LockBackend backend, Duration timeout) {
    if (!(backend instanceof BackendHealthProbe probe)) {
      return healthy("the backend has no health probe; assumed reachable");
    }
    try {
      return probe.checkHealth().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return unhealthy("interrupted");
    } catch (ExecutionException | TimeoutException | RuntimeException e) {
      return unhealthy("no answer: " + e.getClass().getSimpleName());
    }
  }
}
