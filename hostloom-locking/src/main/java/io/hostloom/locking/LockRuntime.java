package io.hostloom.locking;

import io.hostloom.locking.spi.LockBackend;
import io.hostloom.locking.spi.ReleaseSignal;
import io.hostloom.locking.time.LockClock;
import java.time.Duration;
import java.util.concurrent.CompletionException;
import org.slf4j.Logger;

/**
 * What every acquisition and handle of one enabled lock shares, passed to them explicitly: the
 * backend (and its release signal when wake-on-release is on), the clock, the events, the logger,
 * and the options with their limits resolved to nanos once.
 */
record LockRuntime(
    LockingOptions options,
    LockBackend backend,
    ReleaseSignal releaseSignal, // null: no signal, or wake-on-release off
    LockClock clock,
    LockEvents events,
    Logger log,
    long defaultLeaseNanos,
    long maxLeaseNanos,
    long maxHoldNanos,
    HoldPolicy defaultHold, // for options that set none of the hold settings: one per lock
    AcquisitionTracker tracker) { // whether the lock is closed, and its acquisitions in flight

  static final long ORPHAN_RELEASE_TIMEOUT_NANOS = Duration.ofSeconds(5).toNanos();

  static LockRuntime of(
      LockingOptions options,
      LockBackend backend,
      LockClock clock,
      LockEvents events,
      Logger log,
      AcquisitionTracker tracker) {
    return new LockRuntime(
        options,
        backend,
        options.wakeOnRelease() && backend instanceof ReleaseSignal s ? s : null,
        clock,
        events,
        log,
        nanos(options.defaultLease()),
        nanos(options.maxLease()),
        nanos(options.maxHold()),
        HoldPolicy.resolve(LockOptions.DEFAULTS, options, nanos(options.maxHold())),
        tracker);
  }

  /** How a grant under {@code o} is kept; the shared default when {@code o} sets no hold option. */
  HoldPolicy holdPolicy(LockOptions o) {
    return HoldPolicy.usesDefaults(o) ? defaultHold : HoldPolicy.resolve(o, options, maxHoldNanos);
  }

  /** The effective lease in nanos for {@code o}: its lease or the default, capped at max lease. */
  long leaseNanos(LockOptions o) {
    Duration l = o.leaseOrNull();
    return l == null ? defaultLeaseNanos : Math.min(nanos(l), maxLeaseNanos);
  }

  /** The {@code Duration} for {@link #leaseNanos}, reusing the caller's object when uncapped. */
  Duration leaseDuration(LockOptions o, long leaseNanos) {
    Duration l = o.leaseOrNull();
    if (l == null) {
      return options.defaultLease().toNanos() == leaseNanos
          ? options.defaultLease()
          : options.maxLease();
    }
    return nanos(l) == leaseNanos ? l : options.maxLease();
  }

  static long nanos(Duration d) {
    try {
      return d.toNanos();
    } catch (ArithmeticException e) {
      return d.isNegative() ? Long.MIN_VALUE : Long.MAX_VALUE / 4;
    }
  }

  static Throwable unwrap(Throwable e) {
    return e instanceof CompletionException && e.getCause() != null ? e.getCause() : e;
  }
}
