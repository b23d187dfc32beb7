package io.hostloom.testkit;

import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.Objects;

/**
 * One event of a lock history: a holder entering, extending or leaving its hold on a key. Times are
 * {@link System#nanoTime()} values, comparable between processes on the same Linux host (one
 * monotonic clock) but not between hosts.
 *
 * <p>A hold is identified by (key, holder, fencing token). The checker derives from the events the
 * interval in which the holder was <em>certainly</em> entitled to the key: from the moment it saw
 * the grant ({@link Type#ENTER}'s {@code atNanos}) until the earlier of its {@link Type#EXIT} and
 * the end of its lease counted from when it <em>sent</em> the last successful acquire or extend
 * ({@code sentNanos + leaseNanos}). The backend applied the command at or after that send, so the
 * real lease lasts at least that long.
 *
 * @param type what happened
 * @param key the lock key
 * @param holder a label unique per hold (e.g. {@code "p2-t5-r17"}); never an owner token of a
 *     production lock
 * @param fencingToken the grant's fencing token
 * @param sentNanos for ENTER/EXTEND, when the successful command was sent; for EXIT, equal to
 *     {@code atNanos}
 * @param atNanos when the holder saw the answer (ENTER/EXTEND) or stopped relying on the lock
 *     (EXIT: before its release is sent)
 * @param leaseNanos the lease requested by ENTER/EXTEND; {@code 0} for EXIT
 */
public record LockEvent(
    Type type,
    String key,
    String holder,
    long fencingToken,
    long sentNanos,
    long atNanos,
    long leaseNanos) {

  /** The kinds of events. */
  public enum Type {
    /** The holder was granted the key. */
    ENTER,
    /** The holder's lease was extended (also a same-owner re-acquire). */
    EXTEND,
    /** The holder stopped relying on the lock (recorded before the release is sent). */
    EXIT
  }

  public LockEvent {
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(holder, "holder");
    if (type != Type.EXIT && leaseNanos <= 0) {
      throw new IllegalArgumentException(
          "a " + type + " needs a positive lease but was " + leaseNanos);
    }
    if (type != Type.EXIT && atNanos - sentNanos < 0) {
      throw new IllegalArgumentException("an answer cannot come before its request: " + type);
    }
  }

  /**
   * This event as one ledger line (no line terminator): tab-separated type, URL-encoded key and
   * holder, token, sent, at and lease nanos.
   */
  public String toLine() {
    return type
        + "\t"
        + encode(key)
        + "\t"
        + encode(holder)
        + "\t"
        + fencingToken
        + "\t"
        + sentNanos
        + "\t"
        + atNanos
        + "\t"
        + leaseNanos;
  }

  /**
   * Parses a line written by {@link #toLine()}.
   *
   * @throws IllegalArgumentException when the line is not a ledger line (e.g. a torn last line of a
   *     killed process)
   */
  public static LockEvent parse(String line) {
    String[] f = line.split("\t", -1);
    if (f.length != 7) {
      throw new IllegalArgumentException(
          "a ledger line has 7 tab-separated fields but was: " + line);
    }
    try {
      return new LockEvent(
          Type.valueOf(f[0]),
          decode(f[1]),
          decode(f[2]),
          Long.parseLong(f[3]),
          Long.parseLong(f[4]),
          Long.parseLong(f[5]),
          Long.parseLong(f[6]));
    } catch (RuntimeException e) {
      throw new IllegalArgumentException("not a ledger line: " + line, e);
    }
  }

  private static String encode(String s) {
    return URLEncoder.encode(s, StandardCharsets.UTF_8);
  }

  private static String decode(String s) {
    return URLDecoder.decode(s, StandardCharsets.UTF_8);
  }
}
