package io.hostloom.micrometer;

import io.hostloom.locking.rwlock.DistributedReadWriteLock;
import io.hostloom.locking.rwlock.ReadWriteHandle.Mode;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * The reader-writer lock's gauges, the counterpart of {@link SemaphoreMetrics}: {@code
 * hostloom.rwlock.held}, the handles granted through one {@link DistributedReadWriteLock} in this
 * process and neither closed nor lost ({@link DistributedReadWriteLock#held(Mode)}), one gauge per
 * {@code mode} tag ({@code read}, {@code write}), tagged with {@code hostloom.lock.namespace}. Lock
 * names are keys and never a tag. The handles are kernel leases, so the lock meters of a {@link
 * LockMetricsListener} given to the lock's builder time every attempt (one kernel round each, with
 * its outcome) under the keys {@code <name>/w} and {@code <name>/r/<i>}; the wait of a whole
 * acquisition across rounds is not measured.
 */
public final class ReadWriteLockMetrics {
  public static final String HELD = "hostloom.rwlock.held";
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
