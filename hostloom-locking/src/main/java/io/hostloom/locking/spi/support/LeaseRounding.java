package io.hostloom.locking.spi.support;

import java.time.Duration;

/**
 * Lease durations converted to a backend's resolution, always rounded <em>up</em> (a lease is never
 * shorter than asked, and never zero) and at least {@link SpiLimits#MIN_LEASE_MILLIS}. Leases too
 * long for the unit saturate at a value that is effectively forever yet leaves room to add it to
 * any "now" without overflow.
 */
public final class LeaseRounding {
  /** The saturation value of every conversion: a quarter of {@code Long.MAX_VALUE} units. */
  public static final long FOREVER = Long.MAX_VALUE / 4;

  private static final long NANOS_PER_MILLI = 1_000_000L;
  private static final long NANOS_PER_SECOND = 1_000_000_000L;

  private LeaseRounding() {}

  /** Whole milliseconds, rounded up, at least 1; {@link #FOREVER} when longer. */
  public static long ceilMillis(Duration lease) {
    return ceil(lease, NANOS_PER_MILLI);
  }

  /** Whole seconds, rounded up, at least 1; {@link #FOREVER} when longer. */
  public static long ceilSeconds(Duration lease) {
    return ceil(lease, NANOS_PER_SECOND);
  }

  /** Nanoseconds, at least one millisecond; {@link #FOREVER} when longer. */
  public static long nanos(Duration lease) {
    return Math.max(ceil(lease, 1), NANOS_PER_MILLI);
  }

  /**
   * {@code lease} rounded up to a whole multiple of {@code resolution} (taken as at least 1 ms), at
   * least one {@code resolution}; leases beyond about 73 years saturate at {@link #FOREVER}
   * milliseconds.
   */
  public static Duration ceil(Duration lease, Duration resolution) {
    long unit = Math.max(resolution.toNanos(), NANOS_PER_MILLI);
    long units = ceil(lease, unit);
    if (units >= FOREVER / unit) {
      return Duration.ofMillis(FOREVER);
    }
    return Duration.ofNanos(units * unit);
  }

  private static long ceil(Duration lease, long unitNanos) {
    long seconds = lease.getSeconds();
    if (seconds >= FOREVER / NANOS_PER_SECOND) {
      return FOREVER; // about 73 years or more: effectively forever, in any unit
    }
    long total = seconds * NANOS_PER_SECOND + lease.getNano(); // no overflow below FOREVER
    long units = total / unitNanos + (total % unitNanos == 0 ? 0 : 1);
    return Math.max(1, units);
  }
}
