package io.hostloom.jdbc;

import io.hostloom.locking.spi.AcquireOutcome;
import io.hostloom.locking.spi.ExtendOutcome;
import io.hostloom.locking.spi.LeaseRecord;
import io.hostloom.locking.spi.ReleaseOutcome;
import io.hostloom.locking.spi.ReplaceOutcome;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.HexFormat;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;

/**
 * MariaDB (10.5+): every write is one {@code INSERT ... ON DUPLICATE KEY UPDATE ... RETURNING},
 * since MariaDB's {@code UPDATE} has no {@code RETURNING}. One statement, one round trip,
 * auto-commit.
 *
 * <p><b>Why an insert for extend, release and replace.</b> {@code ON DUPLICATE KEY UPDATE} locks
 * the key's latest row version exclusively and evaluates its assignments on it, and {@code
 * RETURNING} then returns the row as written: the holder's current record from the same atomic
 * step, as {@code UPDATE ... RETURNING} gives on PostgreSQL. When the key has no row, the statement
 * inserts an <em>ended</em> row (expiry {@value #TOMBSTONE}) that never blocks a grant and is
 * removed by {@code purgeExpired}; the answer is then "absent".
 *
 * <p><b>Assignments</b> run left to right, and each sees the columns assigned before it. Worse, on
 * MariaDB 10.11 a condition that reads a {@code TEXT} column assigned earlier in the same clause
 * ({@code owner = IF(..), expires_at = IF(owner = VALUES(owner), ..)}) compared equal when it was
 * not, and a refused acquire extended the holder's lease (the WOPI suite caught it). So each
 * condition reads only columns not assigned yet, {@code owner} is assigned last, and where a later
 * column must follow an earlier decision it reads the token as its witness: {@code fencing_token =
 * LASTVAL(seq)} holds exactly when this statement drew the stored token, since every statement
 * draws at least once ({@code VALUES}) and a drawn value is never stored elsewhere.
 *
 * <p><b>Clock.</b> {@code UTC_TIMESTAMP(6)} is the server's clock read once when the statement
 * started (microseconds, no session time zone involved), used for every comparison and new expiry.
 * Time left is measured when the row is returned: minus the time the statement has run so far
 * ({@code SYSDATE(6) - NOW(6)}, floored at 0), so a statement that waited for the row lock does not
 * overstate a competing grant's lease.
 *
 * <p><b>Tokens</b> come from a MariaDB sequence, drawn in the {@code UPDATE} part, i.e. under the
 * row lock, as on PostgreSQL; only the first insert of a key stores the value drawn in {@code
 * VALUES}.
 */
final class MariaDbDialect implements Dialect {
  static final String TOMBSTONE = "1000-01-01 00:00:00";

  private final LockTable table;
  private final String qualifiedTable;
  private final String qualifiedSequence;
  private final String acquire;
  private final String extend;
  private final String release;
  private final String replace;
  private final String read;
  private final String purgeExpired;
  private final String purgeRange;
  private final String probe;
  private final String releaseState;

  MariaDbDialect(LockTable table) {
    this.table = table;
    this.qualifiedTable = qualified(table, table.table());
    this.qualifiedSequence = qualified(table, table.table() + "_fence_seq");

    // The token witnesses the decision for owner, assigned last: it equals LASTVAL exactly when
    // this statement drew it, i.e. the row was expired (see "Assignments" in the class comment)
    acquire =
        sql(
            """
            INSERT INTO {T} {COLUMNS} VALUES (?, ?, ?, {NEXT}, {NOW}, {NOW} + INTERVAL ? MICROSECOND)
            ON DUPLICATE KEY UPDATE
              data = IF({EXPIRED}, VALUES(data), data),
              acquired_at = IF({EXPIRED}, VALUES(acquired_at), acquired_at),
              fencing_token = IF({EXPIRED}, {NEXT}, fencing_token),
              expires_at = IF({EXPIRED} OR owner = VALUES(owner), VALUES(expires_at), expires_at),
              owner = IF({DREW} OR owner = VALUES(owner), VALUES(owner), owner)
            RETURNING owner, data, fencing_token, {REMAINING}""");

    extend =
        sql(
            """
            INSERT INTO {T} {COLUMNS} VALUES (?, ?, '', 0, {NOW}, {ENDED})
            ON DUPLICATE KEY UPDATE
              expires_at = IF({MINE}, {NOW} + INTERVAL ? MICROSECOND, expires_at)
            RETURNING {LIVE}, owner, data, fencing_token, {REMAINING}""");

    // data takes a marker no stored value can equal (see releaseMarker): it proves that this
    // statement released; an ended row's data is never read
    release =
        sql(
            """
            INSERT INTO {T} {COLUMNS} VALUES (?, ?, '', 0, {NOW}, {ENDED})
            ON DUPLICATE KEY UPDATE
              acquired_at = IF({MINE}, {NOW}, acquired_at),
              data = IF({MINE}, ?, data),
              expires_at = IF({MINE}, {ENDED}, expires_at)
            RETURNING data = ?, {LIVE}, owner, data, fencing_token, {REMAINING}""");

    // VALUES draws a token no row holds; a swap draws anew under the row lock, so LASTVAL equals
    // the stored token exactly when this statement swapped ({DREW}), also in RETURNING
    replace =
        sql(
            """
            INSERT INTO {T} {COLUMNS} VALUES (?, ?, '', {NEXT}, {NOW}, {ENDED})
            ON DUPLICATE KEY UPDATE
              data = IF({MINE}, ?, data),
              acquired_at = IF({MINE}, {NOW}, acquired_at),
              fencing_token = IF({MINE}, {NEXT}, fencing_token),
              expires_at = IF({DREW}, {NOW} + INTERVAL ? MICROSECOND, expires_at),
              owner = IF({DREW}, ?, owner)
            RETURNING {DREW}, {LIVE}, owner, data, fencing_token, {REMAINING}""");

    read =
        sql(
            """
            SELECT owner, data, fencing_token, {REMAINING} FROM {T}
            WHERE lock_key = ? AND {LIVE}""");

    // an ended row's acquired_at is its release (or insert) time; otherwise before expires_at.
    // The backend deletes by key range, one batch of rows at a time (see purgeBatch): one
    // statement over the table under REPEATABLE READ (the default, and SET STATEMENT cannot
    // change it) would next-key lock every row and gap it scans, live leases included, until done
    purgeExpired =
        sql(
            """
            DELETE FROM {T}
            WHERE lock_key > ? AND lock_key <= ?
              AND GREATEST(expires_at, acquired_at) <= {NOW} - INTERVAL ? MICROSECOND
            RETURNING 1""");

    // a plain (consistent, lock-free) read of the next batch's key range
    purgeRange =
        sql(
            """
            SELECT MAX(lock_key), COUNT(*)
            FROM (SELECT lock_key FROM {T} WHERE lock_key > ? ORDER BY lock_key LIMIT ?) batch""");

    probe = sql("SELECT 1 FROM {T} WHERE 1 = 0");

    // with the digest of the key's view entries (count and token sum): any change of them, a
    // release among others, is a change polling announces (a grant too: a spurious wake at worst)
    releaseState =
        sql(
            """
            SELECT l.fencing_token, l.expires_at = {ENDED},
              TIMESTAMPDIFF(MICROSECOND, l.acquired_at, {NOW}), v.digest
            FROM (SELECT CONCAT(COUNT(*), ':', COALESCE(SUM(e.fencing_token), 0)) AS digest,
                COUNT(*) AS n
              FROM {E} AS e WHERE e.view_key = ?) AS v
            LEFT JOIN {T} AS l ON l.lock_key = ?
            WHERE l.lock_key IS NOT NULL OR v.n > 0""");
  }

  /** Fills in the names and the shared expressions, longest placeholders first. */
  private String sql(String template) {
    return template
        .replace("{COLUMNS}", "(lock_key, owner, data, fencing_token, acquired_at, expires_at)")
        .replace("{DREW}", "fencing_token = LASTVAL({SEQ})")
        .replace("{MINE}", "({LIVE} AND owner = VALUES(owner))")
        .replace("{EXPIRED}", "expires_at <= {NOW}")
        .replace("{LIVE}", "expires_at > {NOW}")
        // measured when the row is returned, minus the time the statement has run so far
        .replace(
            "{REMAINING}",
            "TIMESTAMPDIFF(MICROSECOND, {NOW}, expires_at)"
                + " - GREATEST(0, TIMESTAMPDIFF(MICROSECOND, NOW(6), SYSDATE(6)))")
        .replace("{ENDED}", "TIMESTAMP'" + TOMBSTONE + "'")
        .replace("{NEXT}", "NEXTVAL({SEQ})")
        .replace("{NOW}", "UTC_TIMESTAMP(6)")
        .replace("{SEQ}", qualifiedSequence)
        .replace("{E}", qualified(table, table.table() + "_view_entries"))
        .replace("{T}", qualifiedTable);
  }

  /** {@code `schema`.`name`}; the default schema means the connection's database. */
  static String qualified(LockTable table, String name) {
    String quoted = '`' + name + '`'; // safe: validated identifiers contain no backtick
    return LockTable.DEFAULT_SCHEMA.equals(table.schema())
        ? quoted
        : '`' + table.schema() + "`." + quoted;
  }

  String qualifiedTable() {
    return qualifiedTable;
  }

  @Override
  public String name() {
    return "mariadb";
  }

  @Override
  public Call<AcquireOutcome> acquire(String key, String owner, String data, long leaseMillis) {
    return new Call<>(
        acquire,
        s -> {
          s.setString(1, key);
          s.setString(2, owner);
          s.setString(3, data);
          s.setLong(4, leaseMillis * 1000);
        },
        rows -> Dialect.acquired(rows, owner));
  }

  @Override
  public Call<ExtendOutcome> extend(String key, String owner, long leaseMillis) {
    return new Call<>(
        extend,
        s -> {
          s.setString(1, key);
          s.setString(2, owner);
          s.setLong(3, leaseMillis * 1000);
        },
        rows -> {
          if (!rows.next() || !rows.getBoolean(1)) {
            return ExtendOutcome.absent();
          }
          return rows.getString(2).equals(owner)
              ? ExtendOutcome.succeeded()
              : ExtendOutcome.mismatch(Dialect.record(rows, 2));
        });
  }

  @Override
  public Call<ReleaseOutcome> release(String key, String owner, boolean notify) {
    String marker = releaseMarker();
    return new Call<>(
        release,
        s -> {
          s.setString(1, key);
          s.setString(2, owner);
          s.setString(3, marker);
          s.setString(4, marker);
        },
        rows -> {
          if (!rows.next()) {
            return ReleaseOutcome.absent();
          }
          if (rows.getBoolean(1)) {
            return ReleaseOutcome.succeeded();
          }
          return rows.getBoolean(2)
              ? ReleaseOutcome.mismatch(Dialect.record(rows, 3))
              : ReleaseOutcome.absent();
        });
  }

  @Override
  public Call<ReplaceOutcome> replace(
      String key, String expectedOwner, String newOwner, String newData, long leaseMillis) {
    return new Call<>(
        replace,
        s -> {
          s.setString(1, key);
          s.setString(2, expectedOwner);
          s.setString(3, newData);
          s.setLong(4, leaseMillis * 1000);
          s.setString(5, newOwner);
        },
        rows -> {
          if (!rows.next() || !rows.getBoolean(2)) {
            return ReplaceOutcome.absent();
          }
          if (rows.getBoolean(1)) {
            return ReplaceOutcome.replaced(rows.getLong(5));
          }
          return ReplaceOutcome.mismatch(Dialect.record(rows, 3));
        });
  }

  @Override
  public Call<Optional<LeaseRecord>> read(String key) {
    return Dialect.readCall(read, key);
  }

  /**
   * Not one statement on MariaDB: the backend purges in batches ({@link #purgeRange} then {@link
   * #purgeBatch}), so other statements wait for one batch at most.
   */
  @Override
  public Call<Integer> purgeExpired(long ageMillis) {
    throw new UnsupportedOperationException("MariaDB purges in batches: purgeRange, purgeBatch");
  }

  /** The next batch's keys: after {@code afterKey}, at most {@code limit} rows, ended or not. */
  record PurgeRange(String lastKey, int rows) {}

  /**
   * The key range of the next {@code limit} rows after {@code afterKey} ({@code ""}: from the
   * first), by a plain read that locks nothing; {@code lastKey} is null when there are none.
   */
  Call<PurgeRange> purgeRange(String afterKey, int limit) {
    return new Call<>(
        purgeRange,
        s -> {
          s.setString(1, afterKey);
          s.setInt(2, limit);
        },
        rows -> {
          rows.next();
          return new PurgeRange(rows.getString(1), rows.getInt(2));
        });
  }

  /**
   * Deletes the rows of keys in ({@code afterKey}, {@code lastKey}] that ended {@code ageMillis}
   * ago or more; it locks only that range.
   */
  Call<Integer> purgeBatch(String afterKey, String lastKey, long ageMillis) {
    return new Call<>(
        purgeExpired,
        s -> {
          s.setString(1, afterKey);
          s.setString(2, lastKey);
          s.setLong(3, ageMillis * 1000);
        },
        Dialect::countRows);
  }

  /**
   * The key's row as release polling sees it, ended or not: its token and whether it is a tombstone
   * ({@value #TOMBSTONE}: released, or inserted ended for an absent key).
   */
  Call<Optional<PollingReleaseWatcher.State>> releaseState(String key) {
    return new Call<>(
        releaseState,
        s -> {
          s.setString(1, key);
          s.setString(2, key);
        },
        rows ->
            rows.next()
                ? Optional.of(
                    new PollingReleaseWatcher.State(
                        rows.getLong(1), rows.getBoolean(2), rows.getLong(3), rows.getString(4)))
                : Optional.empty());
  }

  @Override
  public ViewDialect views() {
    return new MariaDbViews(table);
  }

  @Override
  public String probe() {
    return probe;
  }

  /**
   * {@code CREATE ... IF NOT EXISTS} is atomic in MariaDB (a concurrent starter finds the table and
   * gets a warning), so no lock is needed.
   */
  @Override
  public void createTable(Connection c, int querySeconds) throws SQLException {
    Dialect.executeAll(c, querySeconds, LockTable.statements(ddl(table)));
  }

  /**
   * The table's DDL: {@value LockTable#MARIADB_DDL_RESOURCE} with {@code ${table}} and {@code
   * ${sequence}} filled in.
   */
  static String ddl(LockTable table) {
    return LockTable.resource(LockTable.MARIADB_DDL_RESOURCE)
        .replace("${view_keys}", qualified(table, table.table() + "_view_keys"))
        .replace("${view_entries}", qualified(table, table.table() + "_view_entries"))
        .replace("${view_acquire}", qualified(table, table.table() + "_view_acquire"))
        .replace("${view_extend}", qualified(table, table.table() + "_view_extend"))
        .replace("${table}", qualified(table, table.table()))
        .replace("${sequence}", qualified(table, table.table() + "_fence_seq"));
  }

  /**
   * U+0001 {@code r} and 16 random hex digits: {@link StoredText} writes U+0001 only before U+0001,
   * {@code 0}, {@code u} or {@code h}, so no stored owner or data equals a marker.
   */
  private static String releaseMarker() {
    return "\u0001r" + HexFormat.of().toHexDigits(ThreadLocalRandom.current().nextLong());
  }
}
