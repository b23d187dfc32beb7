package io.hostloom.locking.spi.support;

import io.hostloom.locking.spi.AcquireOutcome;
import io.hostloom.locking.spi.ExtendOutcome;
import io.hostloom.locking.spi.LeaseRecord;
import io.hostloom.locking.spi.ReleaseOutcome;
import java.util.Objects;
import java.util.Optional;

/**
 * What one native view (a permit view of some count, the read view, the write view) decides for the
 * lease engine's operations on a key's state: the view's half of {@link PermitEntries} or {@link
 * ReadWriteEntries}, so that a backend that keeps a key's entries in one record maps the operations
 * to a view once ({@link #permits}, {@link #reads}, {@link #writes}) and runs every view through
 * the same code. Times are nanoseconds of the backend's clock; {@code floor} is the least token a
 * new grant may take.
 *
 * @param <S> the key's state
 * @param acquire acquire by an owner at now, for a lease
 * @param extend extend of the owner's entry of this view to now + lease
 * @param release release of the owner's entry of this view
 * @param read the record this view's read answers at now
 */
public record ViewRules<S>(Acquire<S> acquire, Extend<S> extend, Release<S> release, Read<S> read) {
  /** All four are required. */
  public ViewRules {
    Objects.requireNonNull(acquire, "acquire");
    Objects.requireNonNull(extend, "extend");
    Objects.requireNonNull(release, "release");
    Objects.requireNonNull(read, "read");
  }

  /** An acquire's decision. */
  @FunctionalInterface
  public interface Acquire<S> {
    ViewStep<S, AcquireOutcome> decide(
        S state, String owner, String data, long now, long leaseNanos, long floor);
  }

  /** An extend's decision. */
  @FunctionalInterface
  public interface Extend<S> {
    ViewStep<S, ExtendOutcome> decide(S state, String owner, long now, long leaseNanos);
  }

  /** A release's decision. */
  @FunctionalInterface
  public interface Release<S> {
    ViewStep<S, ReleaseOutcome> decide(S state, String owner, long now);
  }

  /** A read's answer. */
  @FunctionalInterface
  public interface Read<S> {
    Optional<LeaseRecord> at(S state, long now);
  }

  /** The permit view of semaphores of {@code permits}. */
  public static ViewRules<PermitEntries> permits(int permits) {
    if (permits <= 0) {
      throw new IllegalArgumentException("permits must be positive but was " + permits);
    }
    return new ViewRules<>(
        (s, owner, data, now, lease, floor) -> s.acquire(permits, owner, data, now, lease, floor),
        PermitEntries::extend,
        PermitEntries::release,
        PermitEntries::read);
  }

  /** The read view of reader-writer locks of at most {@code maxReaders} readers. */
  public static ViewRules<ReadWriteEntries> reads(int maxReaders) {
    if (maxReaders <= 0) {
      throw new IllegalArgumentException("maxReaders must be positive but was " + maxReaders);
    }
    return new ViewRules<>(
        (s, owner, data, now, lease, floor) ->
            s.acquireRead(maxReaders, owner, data, now, lease, floor),
        ReadWriteEntries::extendRead,
        ReadWriteEntries::releaseRead,
        ReadWriteEntries::readReaders);
  }

  /** The write view of reader-writer locks. */
  public static ViewRules<ReadWriteEntries> writes() {
    return new ViewRules<>(
        ReadWriteEntries::acquireWrite,
        ReadWriteEntries::extendWrite,
        ReadWriteEntries::releaseWrite,
        ReadWriteEntries::readWriter);
  }
}
