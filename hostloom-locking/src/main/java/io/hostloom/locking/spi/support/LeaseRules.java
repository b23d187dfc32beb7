package io.hostloom.locking.spi.support;

import java.util.Objects;

/**
 * The lease decision table of {@link io.hostloom.locking.spi.LockBackend}, as pure functions of the
 * key's current record (or its absence), the operation and the backend's now.
 *
 * <table>
 *   <caption>Decisions</caption>
 *   <tr><th>current record</th><th>acquire</th><th>extend</th><th>release</th><th>replace</th>
 *       <th>read</th></tr>
 *   <tr><td>absent or expired</td><td>{@code GRANT_NEW_TOKEN}</td><td>{@code REFUSED_ABSENT}</td>
 *       <td>{@code REFUSED_ABSENT}</td><td>{@code REFUSED_ABSENT}</td><td>{@code REFUSED_ABSENT}</td></tr>
 *   <tr><td>live, caller's owner</td><td>{@code EXTEND_SAME_TOKEN}</td>
 *       <td>{@code EXTEND_SAME_TOKEN}</td><td>{@code RELEASE}</td><td>{@code REPLACE_NEW_TOKEN}</td>
 *       <td>{@code HELD}</td></tr>
 *   <tr><td>live, another owner</td><td>{@code HELD}</td><td>{@code REFUSED_OTHER_OWNER}</td>
 *       <td>{@code REFUSED_OTHER_OWNER}</td><td>{@code REFUSED_OTHER_OWNER}</td><td>{@code HELD}</td></tr>
 * </table>
 *
 * <p>"The caller's owner" is {@code owner} for acquire, extend and release and {@code
 * expectedOwner} for replace; owners compare ordinally and exactly. A record is live while its
 * expiry is after the backend's now ({@link #live}). Backends with their own atomic step (a {@code
 * compute}, a script, a statement) call these inside it; {@link VersionedRecordLockBackend} calls
 * them between its read and its conditional write.
 */
public final class LeaseRules {
  private LeaseRules() {}

  /**
   * Whether a record expiring at {@code expiresAt} is live at {@code now} (both in one unit of the
   * backend's clock; compared as a difference, so a monotonic ticker that wraps is fine).
   */
  public static boolean live(long expiresAt, long now) {
    return expiresAt - now > 0;
  }

  /**
   * The decision for {@code operation} by {@code caller} on a key whose current record has owner
   * {@code currentOwner} ({@code null} when there is none) and expires at {@code expiresAt}, judged
   * at the backend's {@code now}.
   */
  public static LeaseDecision decide(
      LeaseOperation operation, String currentOwner, long expiresAt, long now, String caller) {
    return decide(
        operation, currentOwner != null && live(expiresAt, now) ? currentOwner : null, caller);
  }

  /**
   * The decision for {@code operation} by {@code caller} when the key's live owner is {@code
   * liveOwner}, or {@code null} when the key is free or expired.
   */
  public static LeaseDecision decide(LeaseOperation operation, String liveOwner, String caller) {
    Objects.requireNonNull(operation, "operation");
    if (liveOwner == null) {
      return operation == LeaseOperation.ACQUIRE
          ? LeaseDecision.GRANT_NEW_TOKEN
          : LeaseDecision.REFUSED_ABSENT;
    }
    if (operation == LeaseOperation.READ) {
      return LeaseDecision.HELD;
    }
    boolean own = liveOwner.equals(caller);
    switch (operation) {
      case ACQUIRE:
        return own ? LeaseDecision.EXTEND_SAME_TOKEN : LeaseDecision.HELD;
      case EXTEND:
        return own ? LeaseDecision.EXTEND_SAME_TOKEN : LeaseDecision.REFUSED_OTHER_OWNER;
      case RELEASE:
        return own ? LeaseDecision.RELEASE : LeaseDecision.REFUSED_OTHER_OWNER;
      case REPLACE:
        return own ? LeaseDecision.REPLACE_NEW_TOKEN : LeaseDecision.REFUSED_OTHER_OWNER;
      default:
        throw new AssertionError(operation);
    }
  }
}
