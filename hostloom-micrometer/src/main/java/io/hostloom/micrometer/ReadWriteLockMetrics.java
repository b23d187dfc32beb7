package io.hostloom.micrometer;

import io.hostloom.locking.rwlock.DistributedReadWriteLock;
import io.hostloom.locking.rwlock.ReadWriteHandle.Mode;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * The reader-writer lock's gauges, the counterpart of {@link SemaphoreMetrics}: {@code
 * hostloom.rwlock.held}, the handles granted through one {@link DistributedReadWriteLock} in this
 * process and neither closed nor lost ({@link DistributedReadWriteLock#held(Mode)}), one gauge per
 * {@code mode} tag ({@code read}, {@code write}), tagged with {@code hostloom.lock.namespace}. Lock
 * names are keys and never a tag. The timer {@code hostloom.rwlock.acquire.duration} ({@link
 * #timed}): each whole acquisition, every round and wait included, tagged with the namespace,
 * {@code mode} and {@code hostloom.lock.outcome} = acquired | not_acquired | unavailable. The
 * handles are kernel leases, so the lock meters of a {@link LockMetricsListener} given to the
 * lock's builder time every attempt (one kernel round each, with its outcome) under the keys {@code
 * <name>/w} and {@code <name>/r/<i>}.
 */
public final class ReadWriteLockMetrics {
  public static final String HELD = "hostloom.rwlock.held";
  public static final String ACQUIRE_DURATION = "hostloom.rwlock.acquire.duration";
  public static final String MODE_TAG = "mode";

  private ReadWriteLockMetrics() {}

  /**
   * Registers the two gauges for {@code lock} of {@code namespace} (the namespace of the options it
   * was built with); the registry keeps only weak references.
   */
  public static List<Gauge> bind(
      MeterRegistry registry, DistributedReadWriteLock lock, String namespace) {
    Objects.requireNonNull(registry, "registry");
    Objects.requireNonNull(lock, "lock");
    Objects.requireNonNull(namespace, "namespace");
    return List.of(
        gauge(registry, lock, namespace, Mode.READ), gauge(registry, lock, namespace, Mode.WRITE));
  }

  /**
   * {@code lock}, with each acquisition (blocking, {@code tryAcquire...}, async, and the {@code
   * executeWith...} forms up to the action's start) recorded by the {@value #ACQUIRE_DURATION}
   * timer of {@code namespace} and its mode on the registry's clock: {@code acquired}, {@code
   * not_acquired} (busy until the retries or {@code maxWait} ended, or an empty result), {@code
   * unavailable} (a backend failure). An interrupted or cancelled acquisition, a closed lock or a
   * bad argument records nothing. Everything else is the lock's, unchanged; closing it closes
   * {@code lock}.
   */
  public static DistributedReadWriteLock timed(
      MeterRegistry registry, DistributedReadWriteLock lock, String namespace) {
    Objects.requireNonNull(registry, "registry");
    Objects.requireNonNull(lock, "lock");
    Objects.requireNonNull(namespace, "namespace");
    return new TimedReadWriteLock(
        lock, timer(registry, namespace, Mode.READ), timer(registry, namespace, Mode.WRITE));
  }

  private static AcquisitionTimer timer(MeterRegistry registry, String namespace, Mode mode) {
    return new AcquisitionTimer(
        registry,
        ACQUIRE_DURATION,
        "Whole reader-writer lock acquisitions, waits between rounds included",
        Tags.of(
            LockMetricsListener.NAMESPACE_TAG,
            namespace,
            MODE_TAG,
            mode.name().toLowerCase(Locale.ROOT)));
  }

  /** Registers the gauge of one {@code mode}; the registry keeps only a weak reference. */
  public static Gauge gauge(
      MeterRegistry registry, DistributedReadWriteLock lock, String namespace, Mode mode) {
    Objects.requireNonNull(mode, "mode");
    return Gauge.builder(HELD, lock, l -> l.held(mode))
        .description("Reader-writer lock handles held by this process now")
        .tag(LockMetricsListener.NAMESPACE_TAG, namespace)
        .tag(MODE_TAG, mode.name().toLowerCase(Locale.ROOT))
        .register(registry);
  }
}
