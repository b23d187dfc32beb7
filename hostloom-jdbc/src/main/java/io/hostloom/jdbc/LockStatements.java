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
 * <p><b>Why refused writes still rewrite the row.</b> A refused acquire (and a mismatching replace)
 * rewrites the row with its own values instead of filtering it out with a {@code WHERE}. Only rows
 * the statement wrote come back through {@code RETURNING}, and {@code ON CONFLICT DO UPDATE} /
 * {@code UPDATE} act on the latest committed row version, while a fallback {@code SELECT} in the
 * same statement reads the statement's snapshot and can miss a row committed a moment earlier (or
 * see an older owner). Rewriting gives the holder's current record in the same atomic step.
 */
final class LockStatements {
  private static final String NOW = "statement_timestamp()";

  private static final String REMAINING_MICROS =
      "((extract(epoch FROM t.expires_at) - extract(epoch FROM " + NOW + ")) * 1000000)::bigint";

  /** Parameters: key, owner, data, lease millis. Columns: owner, data, fencing_token, micros. */
  final String acquire;

  /** Parameters: lease millis, key, owner. One row when extended. */
  final String extend;

  /** Parameters: key, owner. One row (live: boolean) when the owner's row was deleted. */
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

  /** Parameters: age millis. One row per deleted expired row. */
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
            + " fencing_token = CASE WHEN "
            + expired
            + " THEN excluded.fencing_token ELSE t.fencing_token END,"
            + " acquired_at = CASE WHEN "
            + expired
            + " THEN excluded.acquired_at ELSE t.acquired_at END,"
            + " expires_at = CASE WHEN "
            + grantable
            + " THEN excluded.expires_at ELSE t.expires_at END"
            + " RETURNING t.owner, t.data, t.fencing_token, "
            + REMAINING_MICROS;

    extend =
        "UPDATE "
            + t
            + " AS t SET expires_at = "
            + leaseEnd
            + " WHERE t.lock_key = ? AND t.owner = ? AND "
            + live
            + " RETURNING true";

    // deletes the owner's row even when expired (housekeeping; never someone else's row), and
    // reports true only for a live lease
    release = "DELETE FROM " + t + " AS t WHERE t.lock_key = ? AND t.owner = ? RETURNING " + live;
    releaseAndNotify =
        "WITH d AS (DELETE FROM "
            + t
            + " AS t WHERE t.lock_key = ? AND t.owner = ? RETURNING t.lock_key, "
            + live
            + " AS live) SELECT d.live FROM d, LATERAL pg_notify('"
            + table.notificationChannel()
            + "', d.lock_key) n";

    // n binds each parameter once; n.token is unique, so equality proves this statement swapped
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
            + " THEN n.token ELSE t.fencing_token END,"
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
            + " RETURNING t.fencing_token = n.token, t.owner, t.data, t.fencing_token, "
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
            + " AS t WHERE t.expires_at <= "
            + NOW
            + " - ? * interval '1 millisecond' RETURNING true";

    probe = "SELECT 1 FROM " + t + " WHERE false";
  }
}
