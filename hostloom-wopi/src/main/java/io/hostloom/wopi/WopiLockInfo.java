package io.hostloom.wopi;

import java.time.Instant;
import java.util.Objects;

/**
 * A live WOPI lock as a {@link WopiLockProvider} reported it.
 *
 * <p>Times are in the reporting instance's wall clock ({@link
 * io.hostloom.locking.time.LockClock#instant()}), derived from the lease time the backend had left
 * when it answered, so on a real server they are approximate by the call's latency. Whether the
 * lock is live is decided by the backend's clock alone, never by these values.
 *
 * @param fileId the file
 * @param lockId the lock id as stored (under a non-ordinal comparer, the id that created the lock
 *     or last swapped it in, which may differ from an equivalent id used later)
 * @param lastRefreshed when the lock was created, last refreshed or last swapped in ({@code
 *     expiresAt} minus the provider's expiry)
 * @param expiresAt the last instant at which the lock is still valid: as in the WOPI reference, a
 *     lock exactly the expiry old is still valid and expires right after
 */
public record WopiLockInfo(String fileId, String lockId, Instant lastRefreshed, Instant expiresAt) {
  public WopiLockInfo {
    Objects.requireNonNull(fileId, "fileId");
    Objects.requireNonNull(lockId, "lockId");
    Objects.requireNonNull(lastRefreshed, "lastRefreshed");
    Objects.requireNonNull(expiresAt, "expiresAt");
    if (expiresAt.isBefore(lastRefreshed)) {
      throw new IllegalArgumentException(
          "expiresAt must not be before lastRefreshed but was "
              + expiresAt
              + " < "
              + lastRefreshed);
    }
  }

  /**
   * Whether the lock had expired at {@code now} by these reported times ({@code now > expiresAt}).
   */
  public boolean isExpiredAt(Instant now) {
    return now.isAfter(expiresAt);
  }

  /** Hides the lock id (the WOPI client's ownership token); shows its length. */
  @Override
  public String toString() {
    return "WopiLockInfo[fileId="
        + fileId
        + ", lockIdLength="
        + lockId.length()
        + ", lastRefreshed="
        + lastRefreshed
        + ", expiresAt="
        + expiresAt
        + "]";
  }
}
