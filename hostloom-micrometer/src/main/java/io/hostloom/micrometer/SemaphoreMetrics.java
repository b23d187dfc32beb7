package io.hostloom.micrometer;

import io.hostloom.locking.semaphore.DistributedSemaphores;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.Objects;

/**
 * The semaphores' gauge: {@code hostloom.semaphore.permits.held}, the permits granted through one
 * {@link DistributedSemaphores} in this process and neither released nor lost ({@link
 * DistributedSemaphores#permitsHeld()}), tagged with {@code hostloom.lock.namespace}. Semaphore
 * names are keys and never a tag. The permits are kernel grants, so the lock meters of a {@link
 * LockMetricsListener} given to the semaphores' builder count them too (acquire durations, losses).
 */
public final class SemaphoreMetrics {
  public static final String PERMITS_HELD = "hostloom.semaphore.permits.held";

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
}
