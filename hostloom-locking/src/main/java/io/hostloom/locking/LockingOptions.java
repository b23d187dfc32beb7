package io.hostloom.locking;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;

/**
 * Per-namespace settings of a lock. Immutable; built with {@link #builder()}. The builder accepts
 * any value; {@link #validate()} lists every problem at once, each naming its {@code
 * hostloom.locking.*} key, and the lock's constructor throws when that list is not empty.
 */
public final class LockingOptions {
  /** The configuration prefix every key below starts with. */
  public static final String PREFIX = "hostloom.locking.";

  public static final String KEY_NAMESPACE = PREFIX + "namespace";
  public static final String KEY_ENABLED = PREFIX + "enabled";
  public static final String KEY_DEFAULT_LEASE = PREFIX + "default-lease";
  public static final String KEY_MAX_LEASE = PREFIX + "max-lease";
  public static final String KEY_MAX_HOLD = PREFIX + "max-hold";
  public static final String KEY_STRICT_MAX_HOLD = PREFIX + "strict-max-hold";
  public static final String KEY_RETRY = PREFIX + "retry";
  public static final String KEY_AUTO_EXTEND = PREFIX + "auto-extend";
  public static final String KEY_DETECT_REENTRANCY = PREFIX + "detect-reentrancy";
  public static final String KEY_MAX_KEY_LENGTH = PREFIX + "max-key-length";
  public static final String KEY_WAKE_ON_RELEASE = PREFIX + "wake-on-release";

  public static final boolean DEFAULT_ENABLED = true;
  public static final Duration DEFAULT_LEASE = Duration.ofSeconds(30);
  public static final Duration DEFAULT_MAX_LEASE = Duration.ofMinutes(5);
  public static final Duration DEFAULT_MAX_HOLD = Duration.ofMinutes(10);
  public static final boolean DEFAULT_STRICT_MAX_HOLD = false;
  public static final boolean DEFAULT_AUTO_EXTEND = false;
  public static final boolean DEFAULT_DETECT_REENTRANCY = true;
  public static final int DEFAULT_MAX_KEY_LENGTH = 512;
  public static final boolean DEFAULT_WAKE_ON_RELEASE = true;

  private final String namespace;
  private final boolean enabled;
  private final Duration defaultLease;
  private final Duration maxLease;
  private final Duration maxHold;
  private final boolean strictMaxHold;
  private final LockRetryPolicy retry;
  private final boolean autoExtend;
  private final boolean detectReentrancy;
  private final int maxKeyLength;
  private final boolean wakeOnRelease;

  private LockingOptions(Builder b) {
    namespace = b.namespace;
    enabled = b.enabled;
    defaultLease = b.defaultLease;
    maxLease = b.maxLease;
    maxHold = b.maxHold;
    strictMaxHold = b.strictMaxHold;
    retry = b.retry;
    autoExtend = b.autoExtend;
    detectReentrancy = b.detectReentrancy;
    maxKeyLength = b.maxKeyLength;
    wakeOnRelease = b.wakeOnRelease;
  }

  public static Builder builder() {
    return new Builder();
  }

  /** Options with every default and the given namespace. */
  public static LockingOptions of(String namespace) {
    return builder().namespace(namespace).build();
  }

  /** A builder holding every value of these options, to copy and change them. */
  public Builder toBuilder() {
    return new Builder()
        .namespace(namespace)
        .enabled(enabled)
        .defaultLease(defaultLease)
        .maxLease(maxLease)
        .maxHold(maxHold)
        .strictMaxHold(strictMaxHold)
        .retry(retry)
        .autoExtend(autoExtend)
        .detectReentrancy(detectReentrancy)
        .maxKeyLength(maxKeyLength)
        .wakeOnRelease(wakeOnRelease);
  }

  /**
   * These options, when {@link #validate()} finds nothing: the check every builder of the kernel
   * (lock, semaphores, reader-writer lock) makes before it builds.
   *
   * @throws IllegalArgumentException listing every problem {@link #validate()} finds
   */
  public LockingOptions requireValid() {
    List<String> problems = validate();
    if (!problems.isEmpty()) {
      throw new IllegalArgumentException("invalid locking options: " + String.join("; ", problems));
    }
    return this;
  }

  /**
   * Every rule these options break, one message each naming its key; empty when valid. Rules:
   * namespace non-empty, only {@code [a-z0-9-]} and not {@link LockKey#RESERVED_NAMESPACE}; default
   * lease &gt; 0; max lease &ge; default lease; max hold &gt; 0; retry set; max key length &gt; 0.
   */
  public List<String> validate() {
    List<String> problems = new ArrayList<>();
    if (!LockKey.isValidNamespace(namespace)) {
      problems.add(
          KEY_NAMESPACE + " must be non-empty and only a-z, 0-9 and - but was '" + namespace + "'");
    } else if (namespace.equals(LockKey.RESERVED_NAMESPACE)) {
      problems.add(
          KEY_NAMESPACE
              + " must not be '"
              + LockKey.RESERVED_NAMESPACE
              + "': its keys would be the WOPI locks' keys (wopi:lock:<fileId>) on a shared"
              + " backend");
    }
    boolean leaseOk = positive(defaultLease);
    if (!leaseOk) {
      problems.add(KEY_DEFAULT_LEASE + " must be positive but was " + defaultLease);
    }
    if (!positive(maxLease) || (leaseOk && maxLease.compareTo(defaultLease) < 0)) {
      problems.add(
          KEY_MAX_LEASE
              + " must be >= "
              + KEY_DEFAULT_LEASE
              + " ("
              + defaultLease
              + ") but was "
              + maxLease);
    }
    if (!positive(maxHold)) {
      problems.add(KEY_MAX_HOLD + " must be positive but was " + maxHold);
    }
    if (retry == null) {
      problems.add(KEY_RETRY + " must be set but was null");
    }
    if (maxKeyLength <= 0) {
      problems.add(KEY_MAX_KEY_LENGTH + " must be positive but was " + maxKeyLength);
    }
    return Collections.unmodifiableList(problems);
  }

  private static boolean positive(Duration d) {
    return d != null && !d.isNegative() && !d.isZero();
  }

  /** The namespace: keys reach the backend as {@code <namespace>:lock:<key>}. Required. */
  public String namespace() {
    return namespace;
  }

  /**
   * {@code false} is single-instance mode: no backend, every action runs at once, handles are
   * placeholders with {@code isCoordinated() == false}. Default {@value #DEFAULT_ENABLED}.
   */
  public boolean enabled() {
    return enabled;
  }

  /** The lease when a call does not set one. Default {@link #DEFAULT_LEASE}. */
  public Duration defaultLease() {
    return defaultLease;
  }

  /** Caps every requested lease and extension, silently. Default {@link #DEFAULT_MAX_LEASE}. */
  public Duration maxLease() {
    return maxLease;
  }

  /**
   * Automatic extension stops once a handle has been held this long (measured from the acquisition
   * request). Default {@link #DEFAULT_MAX_HOLD}.
   */
  public Duration maxHold() {
    return maxHold;
  }

  /**
   * Opt-in: the last automatic extension is shortened so the lease ends exactly at request + {@link
   * #maxHold()} (the seed's soft cap lets a hold reach max hold + one lease). Default {@value
   * #DEFAULT_STRICT_MAX_HOLD}.
   */
  public boolean strictMaxHold() {
    return strictMaxHold;
  }

  /**
   * The retry policy when a call does not set one. Default {@link LockRetryPolicy#defaultPolicy()}.
   */
  public LockRetryPolicy retry() {
    return retry;
  }

  /**
   * Whether handles extend themselves when a call does not say. Default {@value
   * #DEFAULT_AUTO_EXTEND}.
   */
  public boolean autoExtend() {
    return autoExtend;
  }

  /**
   * Whether an acquisition of a key that the calling thread holds through {@code executeWithLock}
   * throws {@link LockReentrancyException}. Default {@value #DEFAULT_DETECT_REENTRANCY}.
   */
  public boolean detectReentrancy() {
    return detectReentrancy;
  }

  /**
   * The longest key in UTF-16 units, before prefixing. Default {@value #DEFAULT_MAX_KEY_LENGTH}.
   */
  public int maxKeyLength() {
    return maxKeyLength;
  }

  /**
   * Whether a waiter also tries when the backend signals that the key may have been released,
   * instead of only at the end of each retry delay. Takes effect only when the backend implements
   * {@link io.hostloom.locking.spi.ReleaseSignal}. The signal is a hint: a woken attempt that is
   * refused while its retry delay still runs is free (it uses no retry and the delay keeps its
   * remaining time), so the retry limit, {@code maxWait} and the acquisition's duration stay those
   * of polling with the retry policy; without a signal every wait is the policy's delay. Default
   * {@value #DEFAULT_WAKE_ON_RELEASE}.
   */
  public boolean wakeOnRelease() {
    return wakeOnRelease;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof LockingOptions x
        && Objects.equals(namespace, x.namespace)
        && enabled == x.enabled
        && Objects.equals(defaultLease, x.defaultLease)
        && Objects.equals(maxLease, x.maxLease)
        && Objects.equals(maxHold, x.maxHold)
        && strictMaxHold == x.strictMaxHold
        && Objects.equals(retry, x.retry)
        && autoExtend == x.autoExtend
        && detectReentrancy == x.detectReentrancy
        && maxKeyLength == x.maxKeyLength
        && wakeOnRelease == x.wakeOnRelease;
  }

  @Override
  public int hashCode() {
    return Objects.hash(
        namespace,
        enabled,
        defaultLease,
        maxLease,
        maxHold,
        strictMaxHold,
        retry,
        autoExtend,
        detectReentrancy,
        maxKeyLength,
        wakeOnRelease);
  }

  @Override
  public String toString() {
    return "LockingOptions[namespace="
        + namespace
        + ", enabled="
        + enabled
        + ", defaultLease="
        + defaultLease
        + ", maxLease="
        + maxLease
        + ", maxHold="
        + maxHold
        + ", strictMaxHold="
        + strictMaxHold
        + ", retry="
        + (retry == null ? "null" : retry.description())
        + ", autoExtend="
        + autoExtend
        + ", detectReentrancy="
        + detectReentrancy
        + ", maxKeyLength="
        + maxKeyLength
        + ", wakeOnRelease="
        + wakeOnRelease
        + "]";
  }

  /** Builder of {@link LockingOptions}; every field starts at its {@code DEFAULT_*} value. */
  public static final class Builder {
    private String namespace;
    private boolean enabled = DEFAULT_ENABLED;
    private Duration defaultLease = DEFAULT_LEASE;
    private Duration maxLease = DEFAULT_MAX_LEASE;
    private Duration maxHold = DEFAULT_MAX_HOLD;
    private boolean strictMaxHold = DEFAULT_STRICT_MAX_HOLD;
    private LockRetryPolicy retry = LockRetryPolicy.defaultPolicy();
    private boolean autoExtend = DEFAULT_AUTO_EXTEND;
    private boolean detectReentrancy = DEFAULT_DETECT_REENTRANCY;
    private int maxKeyLength = DEFAULT_MAX_KEY_LENGTH;
    private boolean wakeOnRelease = DEFAULT_WAKE_ON_RELEASE;

    private Builder() {}

    /** See {@link LockingOptions#namespace()}; required, no default. */
    public Builder namespace(String namespace) {
      this.namespace = namespace;
      return this;
    }

    public Builder enabled(boolean enabled) {
      this.enabled = enabled;
      return this;
    }

    public Builder defaultLease(Duration defaultLease) {
      this.defaultLease = defaultLease;
      return this;
    }

    public Builder maxLease(Duration maxLease) {
      this.maxLease = maxLease;
      return this;
    }

    public Builder maxHold(Duration maxHold) {
      this.maxHold = maxHold;
      return this;
    }

    public Builder strictMaxHold(boolean strictMaxHold) {
      this.strictMaxHold = strictMaxHold;
      return this;
    }

    public Builder retry(LockRetryPolicy retry) {
      this.retry = retry;
      return this;
    }

    public Builder autoExtend(boolean autoExtend) {
      this.autoExtend = autoExtend;
      return this;
    }

    public Builder detectReentrancy(boolean detectReentrancy) {
      this.detectReentrancy = detectReentrancy;
      return this;
    }

    public Builder maxKeyLength(int maxKeyLength) {
      this.maxKeyLength = maxKeyLength;
      return this;
    }

    /** See {@link LockingOptions#wakeOnRelease()}. */
    public Builder wakeOnRelease(boolean wakeOnRelease) {
      this.wakeOnRelease = wakeOnRelease;
      return this;
    }

    /** Builds without validating; see {@link LockingOptions#validate()}. */
    public LockingOptions build() {
      return new LockingOptions(this);
    }
  }
}
