package io.hostloom.wopi;

/**
 * Decides which WOPI lock ids denote the same lock, expressed as a canonical <em>identity</em>: two
 * lock ids are equal exactly when their identities are equal (ordinally). The {@link
 * WopiLockProvider} stores the identity as the backend record's owner, so every comparison happens
 * atomically inside the backend, in the same operation as the write it guards, never in this JVM
 * between a read and a write.
 *
 * <h2>Contract for implementations</h2>
 *
 * <ul>
 *   <li>{@link #identity} is a pure function of its argument: deterministic, thread-safe, the same
 *       on every host instance and across versions (identities are persisted with live locks for up
 *       to the lock expiry);
 *   <li>it is defined for every valid lock id ({@link WopiLockIds#isValid}) and returns 1 to 2048
 *       characters of printable ASCII (every backend can store that, Azure blob metadata included);
 *       the provider rejects anything else with an {@link IllegalStateException};
 *   <li>identities should be tagged by the rule that produced them (as the built-in comparers do)
 *       so that ids equal under different rules never collide by accident.
 * </ul>
 *
 * <p>Changing the comparer of a running deployment changes the identities of lock ids, so do it
 * while no locks are live (or accept 409s until they expire). The two built-in comparers agree on
 * every lock id that is not a JSON object with a string {@code "S"} property.
 */
@FunctionalInterface
public interface WopiLockComparer {

  /**
   * The canonical identity of {@code lockId}; ids with equal identities denote the same lock.
   *
   * @param lockId a valid lock id
   */
  String identity(String lockId);

  /**
   * Whether {@code stored} and {@code candidate} denote the same lock: both null, or identities
   * equal. Kept for callers that compare outside a backend operation (e.g. the lock check before a
   * PutFile).
   */
  default boolean areEqual(String stored, String candidate) {
    if (stored == null || candidate == null) {
      return stored == null && candidate == null;
    }
    return identity(stored).equals(identity(candidate));
  }

  /**
   * Byte-exact comparison, the default and the WOPI specification's rule: ids are equal only when
   * ordinally equal. Identity: {@code "o:" + lockId}.
   */
  static WopiLockComparer ordinal() {
    return OrdinalLockComparer.INSTANCE;
  }

  /**
   * Ordinal comparison that also treats two JSON-object lock ids as equal when both have a
   * top-level string property {@code "S"} (case-sensitive name) with equal values, ignoring every
   * other property. This absorbs WOPI clients (Office Online Server, Microsoft 365 for the web)
   * that re-send a JSON lock id with properties added or changed.
   *
   * <p>A lock id counts as a JSON object only when its first character is <code>{</code> (no
   * trimming) and the whole id is well-formed JSON; a numeric or {@code null} {@code "S"} does not
   * count, a malformed document has no {@code "S"}, and the last {@code "S"} wins when the name
   * repeats. Identity: {@code "s:" + S} (non-printable characters and backslashes escaped) for such
   * ids, {@code "o:" + lockId} for every other id, so {@code abc} and <code>{"S":"abc"}</code>
   * never collide.
   *
   * <p><b>Trade-off.</b> Distinct locks that share an {@code "S"} become the same lock: a client
   * whose lock should conflict instead refreshes, unlocks or overwrites another session's lock,
   * turning a 409 into a silent lost update. Use it only with evidence that your WOPI client
   * mutates lock ids (spurious 409s in logs).
   */
  static WopiLockComparer jsonShaped() {
    return JsonShapedLockComparer.INSTANCE;
  }
}
