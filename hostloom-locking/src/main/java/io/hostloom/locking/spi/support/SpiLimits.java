package io.hostloom.locking.spi.support;

/**
 * The lengths, in UTF-16 units, that every {@link io.hostloom.locking.spi.LockBackend} must accept
 * and round-trip exactly. A backend may accept more (and say so in its README); it may never refuse
 * less.
 */
public final class SpiLimits {
  /** The longest key every backend must accept. */
  public static final int MAX_KEY_LENGTH = 8192;

  /** The longest owner every backend must accept. */
  public static final int MAX_OWNER_LENGTH = 2048;

  /** The longest data every backend must accept. */
  public static final int MAX_DATA_LENGTH = 2048;

  /** The shortest lease a backend keeps: shorter requests are rounded up to it. */
  public static final long MIN_LEASE_MILLIS = 1;

  private SpiLimits() {}
}
