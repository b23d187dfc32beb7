package io.hostloom.locking.spi.support;

import java.time.Duration;
import java.util.Objects;

/**
 * The argument checks of every {@link io.hostloom.locking.spi.LockBackend} call, in one place: a
 * {@link NullPointerException} naming the argument for {@code null}, an {@link
 * IllegalArgumentException} for an empty key or owner, a value longer than the backend accepts, or
 * a lease that is not positive. Checks run before anything is sent, and only reject what the SPI
 * lets a backend reject.
 *
 * <p>Immutable and thread-safe; one instance per backend, with that backend's upper bounds.
 */
public final class BackendArguments {
  private static final BackendArguments UNBOUNDED =
      new BackendArguments(Integer.MAX_VALUE, Integer.MAX_VALUE, Integer.MAX_VALUE);

  private final int maxKeyLength;
  private final int maxOwnerLength;
  private final int maxDataLength;

  private BackendArguments(int maxKeyLength, int maxOwnerLength, int maxDataLength) {
    this.maxKeyLength = maxKeyLength;
    this.maxOwnerLength = maxOwnerLength;
    this.maxDataLength = maxDataLength;
  }

  /** Checks for a backend that stores values of any length (memory, Redis). */
  public static BackendArguments unbounded() {
    return UNBOUNDED;
  }

  /**
   * Checks for a backend with upper bounds, each at least the SPI's ({@link SpiLimits}).
   *
   * @throws IllegalArgumentException when a bound is below the SPI's limit
   */
  public static BackendArguments withLimits(
      int maxKeyLength, int maxOwnerLength, int maxDataLength) {
    atLeast("maxKeyLength", maxKeyLength, SpiLimits.MAX_KEY_LENGTH);
    atLeast("maxOwnerLength", maxOwnerLength, SpiLimits.MAX_OWNER_LENGTH);
    atLeast("maxDataLength", maxDataLength, SpiLimits.MAX_DATA_LENGTH);
    return new BackendArguments(maxKeyLength, maxOwnerLength, maxDataLength);
  }

  /** The arguments of {@code acquire(key, owner, data, lease)}. */
  public void acquire(String key, String owner, String data, Duration lease) {
    key(key);
    owner(owner, "owner");
    data(data, "data");
    lease(lease);
  }

  /** The arguments of {@code extend(key, owner, lease)}. */
  public void extend(String key, String owner, Duration lease) {
    key(key);
    owner(owner, "owner");
    lease(lease);
  }

  /** The arguments of {@code release(key, owner)}. */
  public void release(String key, String owner) {
    key(key);
    owner(owner, "owner");
  }

  /** The arguments of {@code replace(key, expectedOwner, newOwner, newData, lease)}. */
  public void replace(
      String key, String expectedOwner, String newOwner, String newData, Duration lease) {
    key(key);
    owner(expectedOwner, "expectedOwner");
    owner(newOwner, "newOwner");
    data(newData, "newData");
    lease(lease);
  }

  /** The argument of {@code read(key)}. */
  public void read(String key) {
    key(key);
  }

  /** The arguments of {@code ReleaseSignal.awaitRelease(key, maxWait)}: zero is allowed. */
  public void awaitRelease(String key, Duration maxWait) {
    key(key);
    Objects.requireNonNull(maxWait, "maxWait");
    if (maxWait.isNegative()) {
      throw new IllegalArgumentException("maxWait must not be negative but was " + maxWait);
    }
  }

  /** A key: not null, not empty, not longer than this backend accepts. */
  public void key(String key) {
    Objects.requireNonNull(key, "key");
    if (key.isEmpty()) {
      throw new IllegalArgumentException("key must not be empty");
    }
    atMost("key", key, maxKeyLength);
  }

  /** An owner (named {@code name} in messages): not null, not empty, not too long. */
  public void owner(String owner, String name) {
    Objects.requireNonNull(owner, name);
    if (owner.isEmpty()) {
      throw new IllegalArgumentException(name + " must not be empty");
    }
    atMost(name, owner, maxOwnerLength);
  }

  /** Data (named {@code name} in messages): not null, not too long; empty is allowed. */
  public void data(String data, String name) {
    Objects.requireNonNull(data, name);
    atMost(name, data, maxDataLength);
  }

  /**
   * A lease: not null, positive (rounding up to the backend's resolution is {@link LeaseRounding}).
   */
  public static void lease(Duration lease) {
    Objects.requireNonNull(lease, "lease");
    if (lease.isNegative() || lease.isZero()) {
      throw new IllegalArgumentException("lease must be positive but was " + lease);
    }
  }

  /**
   * A backend's duration setting (a builder's command or health timeout): not null, positive.
   *
   * @return {@code value}, to assign in one line
   * @throws NullPointerException naming the setting when {@code value} is null
   * @throws IllegalArgumentException when {@code value} is zero or negative
   */
  public static Duration positive(String name, Duration value) {
    Objects.requireNonNull(value, name);
    if (value.isNegative() || value.isZero()) {
      throw new IllegalArgumentException(name + " must be positive but was " + value);
    }
    return value;
  }

  private static void atMost(String name, String value, int max) {
    if (value.length() > max) {
      throw new IllegalArgumentException(
          name + " must be at most " + max + " characters but was " + value.length());
    }
  }

  private static void atLeast(String name, int value, int min) {
    if (value < min) {
      throw new IllegalArgumentException(
          name + " must be at least the SPI's " + min + " but was " + value);
    }
  }
}
