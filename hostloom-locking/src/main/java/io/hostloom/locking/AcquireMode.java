package io.hostloom.locking;

import java.util.Optional;
import java.util.function.Function;

/**
 * What an acquisition hands its caller, typed by the entry point: the handle itself ({@link
 * #ACQUIRE}: "not acquired" is {@link LockNotAcquiredException}), the handle or null ({@link
 * #TRY}), or an {@code Optional} ({@link #TRY_ASYNC}).
 *
 * @param <R> the result type
 */
final class AcquireMode<R> {
  static final AcquireMode<LeaseHandle> ACQUIRE = new AcquireMode<>(h -> h, null, true);
  static final AcquireMode<LeaseHandle> TRY = new AcquireMode<>(h -> h, null, false);
  static final AcquireMode<Optional<LockHandle>> TRY_ASYNC =
      new AcquireMode<>(Optional::of, Optional.empty(), false);

  private final Function<LeaseHandle, R> granted;
  private final R notAcquired;
  private final boolean notAcquiredThrows;

  private AcquireMode(Function<LeaseHandle, R> granted, R notAcquired, boolean notAcquiredThrows) {
    this.granted = granted;
    this.notAcquired = notAcquired;
    this.notAcquiredThrows = notAcquiredThrows;
  }

  R granted(LeaseHandle h) {
    return granted.apply(h);
  }

  /** The "not acquired" value; meaningful only when {@link #notAcquiredThrows()} is false. */
  R notAcquired() {
    return notAcquired;
  }

  boolean notAcquiredThrows() {
    return notAcquiredThrows;
  }
}
