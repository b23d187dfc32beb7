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
  private final Duration minimumHold;
  private final Duration maxHold;
  private final boolean renewUntilClosed;
  private final Duration extendEvery;
  private final AutoExtensionListener onAutoExtension;

  private LockOptions(Builder b) {
    lease = b.lease;
    maxWait = b.maxWait;
    retry = b.retry;
    autoExtend = b.autoExtend;
    onLost = b.onLost;
    minimumHold = b.minimumHold;
    maxHold = b.maxHold;
    renewUntilClosed = b.renewUntilClosed;
    extendEvery = b.extendEvery;
    onAutoExtension = b.onAutoExtension;
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
    b.minimumHold = minimumHold;
    b.maxHold = maxHold;
    b.renewUntilClosed = renewUntilClosed;
    b.extendEvery = extendEvery;
    b.onAutoExtension = onAutoExtension;
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

  /** Unset means {@link LockingOptions#autoExtend()}; {@link #renewUntilClosed()} implies it. */
  public Optional<Boolean> autoExtend() {
    return Optional.ofNullable(autoExtend);
  }

  /**
   * The shortest hold: closing the handle earlier keeps the lease until {@code minimumHold} after
   * the acquisition request, by one owner-checked extension to the remainder (counted on the
   * backend's clock from when it handles the call), and then lets it expire; once the remainder is
   * not positive, closing releases at once. Unset or zero: closing releases. A failed extension is
   * logged (3104) and the lease ends at its previous end.
   */
  public Optional<Duration> minimumHold() {
    return Optional.ofNullable(minimumHold);
  }

  /**
   * How long automatic extension keeps this grant alive, from the acquisition request; capped at
   * {@link LockingOptions#maxHold()}. Unlike the lock's own max hold it is always strict: the last
   * extension is shortened so that the lease ends exactly there. Unset: the lock's max hold.
   */
  public Optional<Duration> maxHold() {
    return Optional.ofNullable(maxHold);
  }

  /**
   * Automatic extension without a max hold: the lease is kept alive until the handle is closed or
   * lost (for leaders, whose term has no natural end). Implies automatic extension.
   */
  public boolean renewUntilClosed() {
    return renewUntilClosed;
  }

  /**
   * The cadence of automatic extension: each one is sent this long after the previous one was
   * answered (the first after the grant), but never later than half the lease left. Unset: at half
   * the lease left. A failed extension is retried after half the time left, at least a twentieth of
   * the lease, at most the time left, whatever the cadence.
   */
  public Optional<Duration> extendEvery() {
    return Optional.ofNullable(extendEvery);
  }

  /** Told the outcome of each automatic extension of the granted handle; unset: nobody. */
  public Optional<AutoExtensionListener> onAutoExtension() {
    return Optional.ofNullable(onAutoExtension);
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

  /** {@code minimumHold}, checked: not null, not negative. */
  static Duration checkMinimumHold(Duration minimumHold) {
    Objects.requireNonNull(minimumHold, "minimumHold");
    if (minimumHold.isNegative()) {
      throw new IllegalArgumentException("minimumHold must not be negative but was " + minimumHold);
    }
    return minimumHold;
  }

  Duration minimumHoldOrNull() {
    return minimumHold;
  }

  Duration maxHoldOrNull() {
    return maxHold;
  }

  Duration extendEveryOrNull() {
    return extendEvery;
  }

  AutoExtensionListener onAutoExtensionOrNull() {
    return onAutoExtension;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof LockOptions x
        && Objects.equals(lease, x.lease)
        && Objects.equals(maxWait, x.maxWait)
        && Objects.equals(retry, x.retry)
        && Objects.equals(autoExtend, x.autoExtend)
        && onLost == x.onLost
        && Objects.equals(minimumHold, x.minimumHold)
        && Objects.equals(maxHold, x.maxHold)
        && renewUntilClosed == x.renewUntilClosed
        && Objects.equals(extendEvery, x.extendEvery)
        && Objects.equals(onAutoExtension, x.onAutoExtension);
  }

  @Override
  public int hashCode() {
    return Objects.hash(
        lease,
        maxWait,
        retry,
        autoExtend,
        onLost,
        minimumHold,
        maxHold,
        renewUntilClosed,
        extendEvery,
        onAutoExtension);
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
        + ", minimumHold="
        + minimumHold
        + ", maxHold="
        + maxHold
        + ", renewUntilClosed="
        + renewUntilClosed
        + ", extendEvery="
        + extendEvery
        + "]";
  }

  /** Builder of {@link LockOptions}; everything starts unset and {@code onLost} at OBSERVE. */
  public static final class Builder {
    private Duration lease;
    private Duration maxWait;
    private LockRetryPolicy retry;
    private Boolean autoExtend;
    private OnLost onLost = OnLost.OBSERVE;
    private Duration minimumHold;
    private Duration maxHold;
    private boolean renewUntilClosed;
    private Duration extendEvery;
    private AutoExtensionListener onAutoExtension;

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

    /**
     * Sets the minimum hold (see {@link LockOptions#minimumHold()}).
     *
     * @throws IllegalArgumentException when negative
     */
    public Builder minimumHold(Duration minimumHold) {
      this.minimumHold = checkMinimumHold(minimumHold);
      return this;
    }

    /**
     * Sets this grant's max hold (see {@link LockOptions#maxHold()}).
     *
     * @throws IllegalArgumentException when not positive
     */
    public Builder maxHold(Duration maxHold) {
      Objects.requireNonNull(maxHold, "maxHold");
      if (maxHold.isNegative() || maxHold.isZero()) {
        throw new IllegalArgumentException("maxHold must be positive but was " + maxHold);
      }
      this.maxHold = maxHold;
      return this;
    }

    /** Automatic extension until closed or lost (see {@link LockOptions#renewUntilClosed()}). */
    public Builder renewUntilClosed(boolean renewUntilClosed) {
      this.renewUntilClosed = renewUntilClosed;
      return this;
    }

    /**
     * Sets the cadence of automatic extension (see {@link LockOptions#extendEvery()}).
     *
     * @throws IllegalArgumentException when not positive
     */
    public Builder extendEvery(Duration extendEvery) {
      Objects.requireNonNull(extendEvery, "extendEvery");
      if (extendEvery.isNegative() || extendEvery.isZero()) {
        throw new IllegalArgumentException("extendEvery must be positive but was " + extendEvery);
      }
      this.extendEvery = extendEvery;
      return this;
    }

    public Builder onAutoExtension(AutoExtensionListener onAutoExtension) {
      this.onAutoExtension = Objects.requireNonNull(onAutoExtension, "onAutoExtension");
      return this;
    }

    /**
     * @throws IllegalArgumentException when {@code renewUntilClosed} is combined with {@code
     *     maxHold} or with {@code autoExtend(false)}
     */
    public LockOptions build() {
      if (renewUntilClosed && maxHold != null) {
        throw new IllegalArgumentException(
            "renewUntilClosed has no max hold but maxHold was " + maxHold);
      }
      if (renewUntilClosed && Boolean.FALSE.equals(autoExtend)) {
        throw new IllegalArgumentException("renewUntilClosed needs autoExtend but it was false");
      }
      return new LockOptions(this);
    }
  }
}
