package io.hostloom.locking.spi.support;

import io.hostloom.locking.spi.LeaseRecord;
import java.time.Duration;
import java.util.Objects;

/**
 * One entry of a view key of {@link io.hostloom.locking.spi.PermitLeases} or {@link
 * io.hostloom.locking.spi.ReadWriteLeases}: one permit, one reader or the writer, with its owner,
 * data, expiry (in nanoseconds of the backend's clock) and fencing token. A waiting writer's token
 * is 0.
 *
 * @param owner the entry's owner token
 * @param data what the owner stored with its first grant
 * @param expiresAt the backend's clock reading, in nanoseconds, at which the entry stops being live
 * @param token the fencing token of its grant, or 0 for a waiting writer
 */
public record ViewEntry(String owner, String data, long expiresAt, long token) {
  /** Owner and data are required. */
  public ViewEntry {
    Objects.requireNonNull(owner, "owner");
    Objects.requireNonNull(data, "data");
  }

  /** Whether the entry is live at the backend's {@code now} ({@link LeaseRules#live}). */
  public boolean liveAt(long now) {
    return LeaseRules.live(expiresAt, now);
  }

  /** The same entry with expiry {@code expiresAt}. */
  public ViewEntry expiringAt(long expiresAt) {
    return new ViewEntry(owner, data, expiresAt, token);
  }

  /** The entry as the record a refusal or a read answers, with the time left at {@code now}. */
  public LeaseRecord toRecord(long now) {
    return new LeaseRecord(owner, data, Duration.ofNanos(expiresAt - now), token);
  }

  /** Whether this entry expires before {@code other} (compared as a difference, wrap-safe). */
  boolean expiresBefore(ViewEntry other) {
    return expiresAt - other.expiresAt < 0;
  }
}
