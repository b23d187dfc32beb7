package io.hostloom.locking.spi;

import java.time.Duration;
import java.util.Objects;

/**
 * The live lease a backend keeps for one key.
 *
 * @param owner the opaque owner string of the current grant
 * @param data the opaque data stored with the grant ({@code ""} when none was given)
 * @param remaining how much of the lease is left, measured by the backend's clock when it answered;
 *     always positive (an expired record is never returned)
 * @param fencingToken the token of the current grant; see {@link LockBackend} for its rules
 */
public record LeaseRecord(String owner, String data, Duration remaining, long fencingToken) {
  public LeaseRecord {
    Objects.requireNonNull(owner, "owner");
    Objects.requireNonNull(data, "data");
    Objects.requireNonNull(remaining, "remaining");
  }

  /** A record whose owner token is hidden, for logs. */
  @Override
  public String toString() {
    return "LeaseRecord[owner=<hidden>, dataLength="
        + data.length()
        + ", remaining="
        + remaining
        + ", fencingToken="
        + fencingToken
        + "]";
  }
}
