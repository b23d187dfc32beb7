package io.hostloom.locking;

/**
 * How one grant is kept: automatic extension (its cadence and the hold it stops at), the minimum
 * hold that closing honours, and who hears of automatic extensions. Resolved from {@link
 * LockOptions} and the lock's {@link LockingOptions}: once per lock for options that set none of
 * the hold settings (shared by all their grants, it is immutable), else once per acquisition.
 *
 * @param maxHoldNanos automatic extension stops this long after the request; {@code Long.MAX_VALUE}
 *     for none
 * @param strictMaxHold the last extension is shortened to end at max hold
 * @param extendEveryNanos the cadence; {@code -1} for half the lease left
 */
record HoldPolicy(
    boolean autoExtend,
    long maxHoldNanos,
    boolean strictMaxHold,
    long minimumHoldNanos,
    long extendEveryNanos,
    AutoExtensionListener listener) {

  /**
   * Whether {@code o} leaves every hold setting to the lock, so the lock's shared policy applies.
   */
  static boolean usesDefaults(LockOptions o) {
    return o.autoExtendOrNull() == null
        && !o.renewUntilClosed()
        && o.maxHoldOrNull() == null
        && o.minimumHoldOrNull() == null
        && o.extendEveryOrNull() == null
        && o.onAutoExtensionOrNull() == null;
  }

  static HoldPolicy resolve(LockOptions o, LockingOptions lock, long lockMaxHoldNanos) {
    Boolean ae = o.autoExtendOrNull();
    boolean renew = o.renewUntilClosed();
    boolean autoExtend = renew || (ae != null ? ae : lock.autoExtend());
    long maxHold = lockMaxHoldNanos;
    boolean strict = lock.strictMaxHold();
    if (renew) {
      maxHold = Long.MAX_VALUE;
    } else if (o.maxHoldOrNull() != null) {
      maxHold = Math.min(LockRuntime.nanos(o.maxHoldOrNull()), lockMaxHoldNanos);
      strict = true;
    }
    long minimum = o.minimumHoldOrNull() == null ? 0 : LockRuntime.nanos(o.minimumHoldOrNull());
    long every = o.extendEveryOrNull() == null ? -1 : LockRuntime.nanos(o.extendEveryOrNull());
    return new HoldPolicy(autoExtend, maxHold, strict, minimum, every, o.onAutoExtensionOrNull());
  }
}
