package io.hostloom.jdbc;

import io.hostloom.locking.spi.AcquireOutcome;
import io.hostloom.locking.spi.ExtendOutcome;
import io.hostloom.locking.spi.LeaseRecord;
import io.hostloom.locking.spi.ReleaseOutcome;
import io.hostloom.locking.spi.ReplaceOutcome;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * PostgreSQL (12+): the statements of every operation, built once from a validated {@link
 * LockTable}, their parameters and their rows, and the table's DDL. Each operation is one statement
 * that returns rows, run in auto-commit: one round trip.
 *
 * <p><b>One clock reading per statement.</b> Every comparison and every new expiry uses {@code
 * STATEMENT_TIMESTAMP()}: the database server's clock, read once when the statement started, so all
 * parts of a statement agree on "now" (the volatile {@code CLOCK_TIMESTAMP()} is read anew at each
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
final class PostgresDialect implements Dialect {
  /**
   * A release's write: a tombstone, not a DELETE (see the class comment), expired for every
   * statement, also one that started before this one; acquired_at keeps the release time for
   * purgeExpired. An expired lease is left as it is (nothing to release).
   */
  private static final String TOMBSTONE =
      """
      UPDATE {T} AS t
      SET expires_at = CASE WHEN {MINE} THEN '-infinity' ELSE t.expires_at END,
        acquired_at = CASE WHEN {MINE} THEN {NOW} ELSE t.acquired_at END
      FROM n WHERE t.lock_key = ? AND {LIVE}
      RETURNING {MINE} AS released, t.owner, t.data, t.fencing_token,
        CASE WHEN {MINE} THEN 0 ELSE {REMAINING} END AS micros, t.lock_key""";

  private final LockTable table;

  /** Parameters: key, owner, data, lease millis. Columns: owner, data, fencing_token, micros. */
  private final String acquire;

  /**
   * Parameters: owner, lease millis, key. Columns: extended, owner, data, fencing_token, micros. No
   * row when the key is free or expired.
   */
  private final String extend;

  /**
   * Parameters: owner, key. Columns: released, owner, data, fencing_token, micros (0 when
   * released). No row when the key is free or expired.
   */
  private final String release;

  /** As {@link #release}, and announces the key on the table's channel ({@code PG_NOTIFY}). */
  private final String releaseAndNotify;

  /**
   * Parameters: expected owner, new owner, new data, lease millis, key. Columns: replaced, owner,
   * data, fencing_token, micros. No row when the key is free or expired.
   */
  private final String replace;

  /** Parameters: key. Columns: owner, data, fencing_token, micros. */
  private final String read;

  /**
   * Parameters: age millis. One row per deleted row that ended (expired or released) that long ago.
   */
  private final String purgeExpired;

  /** No parameters; no rows. Fails when the table is missing or not readable. */
  private final String probe;

  PostgresDialect(LockTable table) {
    this.table = table;

    // a live lease of the same owner keeps token, data and acquired_at; a refused acquire
    // rewrites every column with its own value (see the class comment). The token is drawn in
    // SET, under the row lock, never the value drawn in VALUES (see the class comment)
    acquire =
        sql(
            """
            INSERT INTO {T} AS t {COLUMNS}
            VALUES (?, ?, ?, {NEXT}, {NOW}, {NOW} + ? * INTERVAL '1 millisecond')
            ON CONFLICT (lock_key) DO UPDATE SET
              owner = CASE WHEN {GRANTABLE} THEN excluded.owner ELSE t.owner END,
              data = CASE WHEN {EXPIRED} THEN excluded.data ELSE t.data END,
              fencing_token = CASE WHEN {EXPIRED} THEN {NEXT} ELSE t.fencing_token END,
              acquired_at = CASE WHEN {EXPIRED} THEN excluded.acquired_at ELSE t.acquired_at END,
              expires_at = CASE WHEN {GRANTABLE} THEN excluded.expires_at ELSE t.expires_at END
            RETURNING t.owner, t.data, t.fencing_token, {REMAINING}""");

    // Owner-checked writes of a live row; a mismatch rewrites the row with its own values, so
    // RETURNING reports the holder from the same step (see the class comment).
    extend =
        sql(
            """
            WITH n AS (
              SELECT ?::TEXT AS owner, {NOW} + ?::BIGINT * INTERVAL '1 millisecond' AS expires_at)
            UPDATE {T} AS t
            SET expires_at = CASE WHEN {MINE} THEN n.expires_at ELSE t.expires_at END
            FROM n WHERE t.lock_key = ? AND {LIVE}
            RETURNING {MINE}, t.owner, t.data, t.fencing_token, {REMAINING}""");

    release =
        sql(
            """
            WITH n AS (SELECT ?::TEXT AS owner)
            {TOMBSTONE}""");

    releaseAndNotify =
        sql(
            """
            WITH n AS (SELECT ?::TEXT AS owner), d AS (
            {TOMBSTONE})
            SELECT d.released, d.owner, d.data, d.fencing_token, d.micros FROM d
            LEFT JOIN LATERAL (SELECT PG_NOTIFY('{CHANNEL}', d.lock_key) WHERE d.released) p
              ON TRUE""");

    // n binds each parameter once. The swap draws its token in SET, so a swap re-evaluated on a
    // newer row version (after a wait) draws anew; CURRVAL() is then the stored token. Without a
    // swap, CURRVAL() is n.token, drawn only to be distinct from every stored token: so equality
    // in RETURNING proves that this statement swapped.
    replace =
        sql(
            """
            WITH n AS (
              SELECT {NEXT} AS token, ?::TEXT AS expected, ?::TEXT AS owner, ?::TEXT AS data,
                {NOW} + ?::BIGINT * INTERVAL '1 millisecond' AS expires_at)
            UPDATE {T} AS t SET
              owner = CASE WHEN {SWAP} THEN n.owner ELSE t.owner END,
              data = CASE WHEN {SWAP} THEN n.data ELSE t.data END,
              fencing_token = CASE WHEN {SWAP} THEN {NEXT} ELSE t.fencing_token END,
              acquired_at = CASE WHEN {SWAP} THEN {NOW} ELSE t.acquired_at END,
              expires_at = CASE WHEN {SWAP} THEN n.expires_at ELSE t.expires_at END
            FROM n WHERE t.lock_key = ? AND {LIVE}
            RETURNING t.fencing_token = CURRVAL('{SEQ}'),
              t.owner, t.data, t.fencing_token, {REMAINING}""");

    read =
        sql(
            """
            SELECT t.owner, t.data, t.fencing_token, {REMAINING}
            FROM {T} AS t WHERE t.lock_key = ? AND {LIVE}""");

    // a tombstone's acquired_at is its release time; otherwise acquired_at <= expires_at
    purgeExpired =
        sql(
            """
            DELETE FROM {T} AS t
            WHERE GREATEST(t.expires_at, t.acquired_at) <= {NOW} - ? * INTERVAL '1 millisecond'
            RETURNING TRUE""");

    probe = sql("SELECT 1 FROM {T} WHERE FALSE");
  }

  /** Fills in the names and the shared expressions, compound placeholders first. */
  private String sql(String template) {
    return template
        .replace("{TOMBSTONE}", TOMBSTONE)
        .replace("{COLUMNS}", "(lock_key, owner, data, fencing_token, acquired_at, expires_at)")
        .replace("{GRANTABLE}", "({EXPIRED} OR t.owner = excluded.owner)")
        .replace("{MINE}", "t.owner = n.owner")
        .replace("{SWAP}", "t.owner = n.expected")
        .replace("{EXPIRED}", "t.expires_at <= {NOW}")
        .replace("{LIVE}", "t.expires_at > {NOW}")
        // read when the row is returned (CLOCK_TIMESTAMP()), not when the statement started: a
        // statement that waited for the row lock would otherwise report more time left than a
        // competing grant's lease. The Java side floors it at 1 us.
        .replace(
            "{REMAINING}",
            "((EXTRACT(EPOCH FROM t.expires_at) - EXTRACT(EPOCH FROM CLOCK_TIMESTAMP())) * 1000000)"
                + "::BIGINT")
        .replace("{NEXT}", "NEXTVAL('{SEQ}')")
        .replace("{NOW}", "STATEMENT_TIMESTAMP()")
        .replace("{CHANNEL}", table.notificationChannel())
        .replace("{SEQ}", table.qualifiedSequence())
        .replace("{T}", table.qualifiedTable());
  }

  @Override
  public String name() {
    return "postgresql";
  }

  @Override
  public Call<AcquireOutcome> acquire(String key, String owner, String data, long leaseMillis) {
    return new Call<>(
        acquire,
        s -> {
          s.setString(1, key);
          s.setString(2, owner);
          s.setString(3, data);
          s.setLong(4, leaseMillis);
        },
        rows -> Dialect.acquired(rows, owner));
  }

  @Override
  public Call<ExtendOutcome> extend(String key, String owner, long leaseMillis) {
    return new Call<>(
        extend,
        s -> {
          s.setString(1, owner);
          s.setLong(2, leaseMillis);
          s.setString(3, key);
        },
        rows -> {
          if (!rows.next()) {
            return ExtendOutcome.absent();
          }
          return rows.getBoolean(1)
              ? ExtendOutcome.succeeded()
              : ExtendOutcome.mismatch(Dialect.record(rows, 2));
        });
  }

  @Override
  public Call<ReleaseOutcome> release(String key, String owner, boolean notify) {
    return new Call<>(
        notify ? releaseAndNotify : release,
        s -> {
          s.setString(1, owner);
          s.setString(2, key);
        },
        rows -> {
          if (!rows.next()) {
            return ReleaseOutcome.absent();
          }
          return rows.getBoolean(1)
              ? ReleaseOutcome.succeeded()
              : ReleaseOutcome.mismatch(Dialect.record(rows, 2));
        });
  }

  @Override
  public Call<ReplaceOutcome> replace(
      String key, String expectedOwner, String newOwner, String newData, long leaseMillis) {
    return new Call<>(
        replace,
        s -> {
          s.setString(1, expectedOwner);
          s.setString(2, newOwner);
          s.setString(3, newData);
          s.setLong(4, leaseMillis);
          s.setString(5, key);
        },
        rows -> {
          if (!rows.next()) {
            return ReplaceOutcome.absent();
          }
          if (rows.getBoolean(1)) {
            return ReplaceOutcome.replaced(rows.getLong(4));
          }
          return ReplaceOutcome.mismatch(Dialect.record(rows, 2));
        });
  }

  @Override
  public Call<Optional<LeaseRecord>> read(String key) {
    return Dialect.readCall(read, key);
  }

  @Override
  public Call<Integer> purgeExpired(long ageMillis) {
    return new Call<>(purgeExpired, s -> s.setLong(1, ageMillis), Dialect::countRows);
  }

  @Override
  public ViewDialect views() {
    return new PostgresViews(table);
  }

  @Override
  public String probe() {
    return probe;
  }

  @Override
  public void createTable(Connection c, int querySeconds) throws SQLException {
    List<String> statements = new ArrayList<>();
    // a transaction-scoped lock: concurrent starters do not race on CREATE ... IF NOT EXISTS
    statements.add(sql("SELECT PG_ADVISORY_XACT_LOCK(HASHTEXT('{T}'))"));
    statements.addAll(LockTable.statements(ddl(table)));
    Dialect.executeAll(c, querySeconds, statements);
  }

  /**
   * The table's DDL: {@value LockTable#DDL_RESOURCE} with {@code ${schema}} and {@code ${table}}
   * filled in.
   */
  static String ddl(LockTable table) {
    return LockTable.resource(LockTable.DDL_RESOURCE)
        .replace("${schema}", table.schema())
        .replace("${table}", table.table());
  }
}
