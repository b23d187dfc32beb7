package io.hostloom.jdbc;

/**
 * The SQL text of every operation, built once from a validated {@link LockTable}. Each operation is
 * one statement that returns rows, run in auto-commit: one round trip.
 *
 * <p><b>One clock reading per statement.</b> Every comparison and every new expiry uses {@code
 * statement_timestamp()}: the database server's clock, read once when the statement started, so all
 * parts of a statement agree on "now" (the volatile {@code clock_timestamp()} is read anew at each
 * call and could disagree with itself inside one statement).
 *
 * <p><b>Why refused writes still rewrite the row.</b> A refused acquire (and a mismatching extend,
 * release or replace) rewrites the row with its own values instead of filtering it out with a
 * {@code WHERE}. Only rows the statement wrote come back through {@code RETURNING}, and {@code ON
 * CONFLICT DO UPDATE} / {@code UPDATE} act on the latest committed row version, while a fallback
 * {@code SELECT} in the same statement reads the statement's snapshot and can miss a row committed
 * a moment earlier (or see an older owner). Rewriting gives the holder's current record in the same
 * atomic step.
 *
 * <p><b>Tokens are drawn under the row lock.</b> A value drawn when a statement starts may be
 * smaller than a grant committed while the statement waited (or was descheduled), so a grant never
 * stores such a value when the key's row exists: {@code ON CONFLICT DO UPDATE} evaluates its {@code
 * SET} only after locking the latest row version, and an {@code UPDATE} re-evaluates its {@code
 * SET} on the latest version when the row changed meanwhile. For that, rows are never deleted on
 * the lock path: a release turns the row into a <i>tombstone</i> ({@code expires_at = '-infinity'},
 * {@code acquired_at} = release time), so the next acquire of the key takes the {@code DO UPDATE}
 * path too. Only the first insert of a key (or the first after {@link #purgeExpired}) stores the
 * value drawn in {@code VALUES}; no earlier grant of that key can carry a larger token, because the
 * purge keeps rows for longer than any statement runs (see {@code JdbcLockBackend#purgeExpired}).
 */
final class LockStatements {
  private static final String NOW = "statement_timestamp()";

  /**
   * Time left, read when the row is returned ({@code clock_timestamp()}), not when the statement
   * started: a statement that started before a competing grant and waited for its row lock would
   * otherwise report more time left than that grant's lease. The Java side floors it at 1 us.
   */
  private static final String REMAINING_MICROS =
      "((extract(epoch FROM t.expires_at) - extract(epoch FROM clock_timestamp())) * 1000000)"
          + "::bigint";

  /** Parameters: key, owner, data, lease millis. Columns: owner, data, fencing_token, micros. */
  final String acquire;

  /**
   * Parameters: owner, lease millis, key. Columns: extended, owner, data, fencing_token, micros. No
   * row when the key is free or expired.
   */
  final String extend;

  /**
   * Parameters: owner, key. Columns: released, owner, data, fencing_token, micros (0 when
   * released). No row when the key is free or expired.
   */
  final String release;

  /** As {@link #release}, and announces the key on the table's channel ({@code pg_notify}). */
  final String releaseAndNotify;

  /**
   * Parameters: expected owner, new owner, new data, lease millis, key. Columns: replaced, owner,
   * data, fencing_token, micros. No row when the key is free or expired.
   */
  final String replace;

  /** Parameters: key. Columns: owner, data, fencing_token, micros. */
  final String read;

  /**
   * Parameters: age millis. One row per deleted row that ended (expired or released) that long ago.
   */
  final String purgeExpired;

  /** No parameters; no rows. Fails when the table is missing or not readable. */
  final String probe;

  LockStatements(LockTable table) {
    String t = table.qualifiedTable();
    String seq = "nextval('" + table.qualifiedSequence() + "')";
    String expired = "t.expires_at <= " + NOW;
    String live = "t.expires_at > " + NOW;
    String grantable = "(" + expired + " OR t.owner = excluded.owner)";
    String leaseEnd = NOW + " + ? * interval '1 millisecond'";

    acquire =
        "INSERT INTO "
            + t
            + " AS t (lock_key, owner, data, fencing_token, acquired_at, expires_at)"
            + " VALUES (?, ?, ?, "
            + seq
            + ", "
            + NOW
            + ", "
            + leaseEnd
            + ") ON CONFLICT (lock_key) DO UPDATE SET"
            // a live lease of the same owner keeps token, data and acquired_at; a refused
            // acquire rewrites every column with its own value (see the class comment)
            + " owner = CASE WHEN "
            + grantable
            + " THEN excluded.owner ELSE t.owner END,"
            + " data = CASE WHEN "
            + expired
            + " THEN excluded.data ELSE t.data END,"
            // drawn here, under the row lock, never the value drawn in VALUES (see class comment)
            + " fencing_token = CASE WHEN "
            + expired
            + " THEN "
            + seq
            + " ELSE t.fencing_token END,"
            + " acquired_at = CASE WHEN "
            + expired
            + " THEN excluded.acquired_at ELSE t.acquired_at END,"
            + " expires_at = CASE WHEN "
            + grantable
            + " THEN excluded.expires_at ELSE t.expires_at END"
            + " RETURNING t.owner, t.data, t.fencing_token, "
            + REMAINING_MICROS;

    // Owner-checked writes of a live row; a mismatch rewrites the row with its own values, so
    // RETURNING reports the holder from the same step (see the class comment).
    String mine = "t.owner = n.owner";
    extend =
        "WITH n AS (SELECT ?::text AS owner, "
            + leaseEnd.replace("?", "?::bigint")
            + " AS expires_at) UPDATE "
            + t
            + " AS t SET expires_at = CASE WHEN "
            + mine
            + " THEN n.expires_at ELSE t.expires_at END FROM n WHERE t.lock_key = ? AND "
            + live
            + " RETURNING "
            + mine
            + ", t.owner, t.data, t.fencing_token, "
            + REMAINING_MICROS;

    // a tombstone, not a DELETE (see the class comment): expired for every statement, also one
    // that started before this one; acquired_at keeps the release time for purgeExpired. An
    // expired lease is left as it is (nothing to release).
    String ownerParam = "WITH n AS (SELECT ?::text AS owner)";
    String tombstone =
        "UPDATE "
            + t
            + " AS t SET expires_at = CASE WHEN "
            + mine
            + " THEN '-infinity' ELSE t.expires_at END, acquired_at = CASE WHEN "
            + mine
            + " THEN "
            + NOW
            + " ELSE t.acquired_at END FROM n WHERE t.lock_key = ? AND "
            + live
            + " RETURNING "
            + mine
            + " AS released, t.owner, t.data, t.fencing_token, CASE WHEN "
            + mine
            + " THEN 0 ELSE "
            + REMAINING_MICROS
            + " END AS micros, t.lock_key";
    release = ownerParam + " " + tombstone;
    releaseAndNotify =
        ownerParam
            + ", d AS ("
            + tombstone
            + ") SELECT d.released, d.owner, d.data, d.fencing_token, d.micros FROM d"
            + " LEFT JOIN LATERAL (SELECT pg_notify('"
            + table.notificationChannel()
            + "', d.lock_key) WHERE d.released) p ON true";

    // n binds each parameter once. The swap draws its token in SET, so a swap re-evaluated on a
    // newer row version (after a wait) draws anew; currval() is then the stored token. Without a
    // swap, currval() is n.token, drawn only to be distinct from every stored token: so equality
    // in RETURNING proves that this statement swapped.
    String swap = "t.owner = n.expected";
    replace =
        "WITH n AS (SELECT "
            + seq
            + " AS token, ?::text AS expected, ?::text AS owner, ?::text AS data, "
            + leaseEnd.replace("?", "?::bigint")
            + " AS expires_at) UPDATE "
            + t
            + " AS t SET"
            + " owner = CASE WHEN "
            + swap
            + " THEN n.owner ELSE t.owner END,"
            + " data = CASE WHEN "
            + swap
            + " THEN n.data ELSE t.data END,"
            + " fencing_token = CASE WHEN "
            + swap
            + " THEN "
            + seq
            + " ELSE t.fencing_token END,"
            + " acquired_at = CASE WHEN "
            + swap
            + " THEN "
            + NOW
            + " ELSE t.acquired_at END,"
            + " expires_at = CASE WHEN "
            + swap
            + " THEN n.expires_at ELSE t.expires_at END"
            + " FROM n WHERE t.lock_key = ? AND "
            + live
            + " RETURNING t.fencing_token = currval('"
            + table.qualifiedSequence()
            + "'), t.owner, t.data, t.fencing_token, "
            + REMAINING_MICROS;

    read =
        "SELECT t.owner, t.data, t.fencing_token, "
            + REMAINING_MICROS
            + " FROM "
            + t
            + " AS t WHERE t.lock_key = ? AND "
            + live;

    purgeExpired =
        "DELETE FROM "
            + t
            // a tombstone's acquired_at is its release time; otherwise acquired_at <= expires_at
            + " AS t WHERE greatest(t.expires_at, t.acquired_at) <= "
            + NOW
            + " - ? * interval '1 millisecond' RETURNING true";

    probe = "SELECT 1 FROM " + t + " WHERE false";
  }
}
