package io.hostloom.locking;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * Per-call settings; every unset value falls back to the lock's {@link LockingOptions}. Immutable;
 * built with {@link #builder()}, which rejects bad values at once ("... but was X").
 */
public final class LockOptions {
  /** Every value unset: the lock's defaults, and no {@code maxWait}. */
  public static final LockOptions DEFAULTS = builder().build();

  /** {@code maxWait = 0}: exactly one attempt, the skip-if-busy default of {@code tryAcquire}. */
  public static final LockOptions SKIP_IF_BUSY = builder().maxWait(Duration.ZERO).build();

  private final Duration lease;
  private final Duration maxWait;
  private final LockRetryPolicy retry;
  private final Boolean autoExtend;
  private final OnLost onLost;

  private LockOptions(Builder b) {
    lease = b.lease;
    maxWait = b.maxWait;
    retry = b.retry;
    autoExtend = b.autoExtend;
    onLost = b.onLost;
  }

  public static Builder builder() {
    return new Builder();
  }

  public Builder toBuilder() {
    Builder b = new Builder();
    b.lease = lease;
    b.maxWait = maxWait;
    b.retry = retry;
    b.autoExtend = autoExtend;
    b.onLost = onLost;
    return b;
  }

  /** The lease; unset means {@link LockingOptions#defaultLease()}; capped at max lease. */
  public Optional<Duration> lease() {
    return Optional.ofNullable(lease);
  }

  /**
   * A hard wall on the whole acquisition, on the lock's clock, on top of the retry policy: no
   * attempt is sent once it has passed, a retry whose delay would reach it is not made, and an
   * outstanding reply stops being waited for (the command is not cancelled; a late grant is
   * released). Zero makes exactly one attempt whose reply is waited for without bound. Unset: the
   * retry policy alone.
   */
  public Optional<Duration> maxWait() {
    return Optional.ofNullable(maxWait);
  }

  /** Unset means {@link LockingOptions#retry()}. */
  public Optional<LockRetryPolicy> retry() {
    return Optional.ofNullable(retry);
  }

  /** Unset means {@link LockingOptions#autoExtend()}. */
  public Optional<Boolean> autoExtend() {
    return Optional.ofNullable(autoExtend);
  }

  /** Default {@link OnLost#OBSERVE}. */
  public OnLost onLost() {
    return onLost;
  }

  Duration leaseOrNull() {
    return lease;
  }

  Duration maxWaitOrNull() {
    return maxWait;
  }

  LockRetryPolicy retryOrNull() {
    return retry;
  }

  Boolean autoExtendOrNull() {
    return autoExtend;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof LockOptions x
        && Objects.equals(lease, x.lease)
        && Objects.equals(maxWait, x.maxWait)
        && Objects.equals(retry, x.retry)
        && Objects.equals(autoExtend, x.autoExtend)
        && onLost == x.onLost;
  }

  @Override
  public int hashCode() {
    return Objects.hash(lease, maxWait, retry, autoExtend, onLost);
  }

  @Override
  public String toString() {
    return "LockOptions[lease="
        + lease
        + ", maxWait="
        + maxWait
        + ", retry="
        + (retry == null ? null : retry.description())
        + ", autoExtend="
        + autoExtend
        + ", onLost="
        + onLost
        + "]";
  }

  /** Builder of {@link LockOptions}; everything starts unset and {@code onLost} at OBSERVE. */
  public static final class Builder {
    private Duration lease;
    private Duration maxWait;
    private LockRetryPolicy retry;
    private Boolean autoExtend;
    private OnLost onLost = OnLost.OBSERVE;

    private Builder() {}

    /**
     * Sets the lease.
     *
     * @throws IllegalArgumentException when not positive
     */
    public Builder lease(Duration lease) {
      Objects.requireNonNull(lease, "lease");
      if (lease.isNegative() || lease.isZero()) {
        throw new IllegalArgumentException("lease must be positive but was " + lease);
      }
      this.lease = lease;
      return this;
    }

    /**
     * Sets the max wait.
     *
     * @throws IllegalArgumentException when negative
     */
    public Builder maxWait(Duration maxWait) {
      Objects.requireNonNull(maxWait, "maxWait");
      if (maxWait.isNegative()) {
        throw new IllegalArgumentException("maxWait must not be negative but was " + maxWait);
      }
      this.maxWait = maxWait;
      return this;
    }

    public Builder retry(LockRetryPolicy retry) {
      this.retry = Objects.requireNonNull(retry, "retry");
      return this;
    }

    public Builder autoExtend(boolean autoExtend) {
      this.autoExtend = autoExtend;
      return this;
    }

    public Builder onLost(OnLost onLost) {
      this.onLost = Objects.requireNonNull(onLost, "onLost");
      return this;
    }

    public LockOptions build() {
      return new LockOptions(this);
    }
  }
}
