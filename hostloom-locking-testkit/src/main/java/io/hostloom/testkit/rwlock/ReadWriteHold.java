package io.hostloom.testkit.rwlock;

import java.util.Objects;

/**
 * One read or write hold as its holder observed it. Times are {@link System#nanoTime()} values. The
 * holder was certainly entitled to the name from {@code grantedNanos} until the earlier of {@code
 * exitNanos} and {@code leaseEndNanos} (the send time of its last successful acquire or extension
 * plus that lease: the backend applied it after it was sent).
 *
 * @param key the lock's name
 * @param write whether this is a write hold
 * @param holder a label unique per hold
 * @param fencingToken the grant's token
 * @param sentNanos when the acquisition was requested
 * @param grantedNanos when the holder saw the grant
 * @param leaseEndNanos the lease bound: send time of the last successful acquire/extend + lease
 * @param exitNanos when the holder stopped relying on it ({@link Long#MAX_VALUE}: never, e.g. it
 *     died)
 */
public record ReadWriteHold(
    String key,
    boolean write,
    String holder,
    long fencingToken,
    long sentNanos,
    long grantedNanos,
    long leaseEndNanos,
    long exitNanos) {

  public ReadWriteHold {
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(holder, "holder");
    if (grantedNanos - sentNanos < 0) {
      throw new IllegalArgumentException("a grant cannot be seen before it was requested");
    }
  }

  /** The end of the interval in which the holder was entitled to the name. */
  public long endNanos() {
    return exitNanos - leaseEndNanos < 0 ? exitNanos : leaseEndNanos;
  }

  /** Whether the interval is not empty. */
  boolean nonEmpty() {
    return endNanos() - grantedNanos > 0;
  }

  @Override
  public String toString() {
    return (write ? "write " : "read ") + holder + "(token " + fencingToken + ")";
  }
}
