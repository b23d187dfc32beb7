package io.hostloom.micrometer;

import io.hostloom.locking.semaphore.DistributedSemaphore;
import io.hostloom.locking.semaphore.DistributedSemaphores;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import java.util.Objects;

/**
 * The semaphores' meters. The gauge {@code hostloom.semaphore.permits.held}: the permits granted
 * through one {@link DistributedSemaphores} in this process and neither released nor lost ({@link
 * DistributedSemaphores#permitsHeld()}), tagged with {@code hostloom.lock.namespace}. The timer
 * {@code hostloom.semaphore.acquire.duration} ({@link #timed}): each whole acquisition, every round
 * and every wait between rounds, tagged with the namespace and {@code hostloom.lock.outcome} =
 * acquired | not_acquired | unavailable | count_mismatch. Semaphore names are keys and never a tag.
 * The permits are kernel grants, so the lock meters of a {@link LockMetricsListener} given to the
 * semaphores' builder count them too (one kernel attempt each, holds, losses).
 */
public final class SemaphoreMetrics {
  public static final String PERMITS_HELD = "hostloom.semaphore.permits.held";
  public static final String ACQUIRE_DURATION = "hostloom.semaphore.acquire.duration";

  private SemaphoreMetrics() {}

  /** Registers the gauge for {@code semaphores}; the registry keeps only a weak reference. */
  public static Gauge bind(MeterRegistry registry, DistributedSemaphores semaphores) {
    Objects.requireNonNull(registry, "registry");
    Objects.requireNonNull(semaphores, "semaphores");
    return Gauge.builder(PERMITS_HELD, semaphores, DistributedSemaphores::permitsHeld)
        .description("Semaphore permits held by this process now")
        .tag(LockMetricsListener.NAMESPACE_TAG, semaphores.namespace())
        .register(registry);
  }

  /**
   * {@code semaphore}, with each acquisition ({@code acquire}, {@code tryAcquire}, {@code
   * executeWithPermits} up to the action's start) recorded by the {@value #ACQUIRE_DURATION} timer
   * of {@code namespace} (the namespace of the semaphores it came from) on the registry's clock:
   * {@code acquired}, {@code not_acquired} (busy until the retries or {@code maxWait} ended, or an
   * empty {@code tryAcquire}), {@code unavailable} (a backend failure), {@code count_mismatch}. An
   * interrupted acquisition, a closed factory or a bad argument records nothing. Everything else is
   * the semaphore's, unchanged.
   */
  public static DistributedSemaphore timed(
      MeterRegistry registry, String namespace, DistributedSemaphore semaphore) {
    Objects.requireNonNull(registry, "registry");
    Objects.requireNonNull(namespace, "namespace");
    Objects.requireNonNull(semaphore, "semaphore");
    return new TimedSemaphore(
        semaphore,
        new AcquisitionTimer(
            registry,
            ACQUIRE_DURATION,
            "Whole semaphore acquisitions, waits between rounds included",
            Tags.of(LockMetricsListener.NAMESPACE_TAG, namespace)));
  }
}
