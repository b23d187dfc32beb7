package io.hostloom.jdbc;

import io.hostloom.locking.spi.AcquireOutcome;
import io.hostloom.locking.spi.ExtendOutcome;
import io.hostloom.locking.spi.LeaseRecord;
import io.hostloom.locking.spi.ReleaseOutcome;
import io.hostloom.locking.spi.ReplaceOutcome;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * What differs between SQL engines: the statement of each operation, how its parameters are bound
 * and how its rows are read. Arguments arrive checked and in their stored form ({@link
 * StoredText}); leases in whole milliseconds. Each call is one statement run by {@link
 * StatementRunner}.
 */
interface Dialect {
  /** One statement with its binder and reader. */
  record Call<T>(String sql, StatementRunner.Binder binder, StatementRunner.Reader<T> reader) {}

  /** The engine's name in health descriptions and {@code LockBackend#name()}. */
  String name();

  Call<AcquireOutcome> acquire(String key, String owner, String data, long leaseMillis);

  Call<ExtendOutcome> extend(String key, String owner, long leaseMillis);

  /** {@code notify}: also announce the release (only where the engine can, see the dialect). */
  Call<ReleaseOutcome> release(String key, String owner, boolean notify);

  Call<ReplaceOutcome> replace(
      String key, String expectedOwner, String newOwner, String newData, long leaseMillis);

  Call<Optional<LeaseRecord>> read(String key);

  /** Deletes rows that ended at least {@code ageMillis} ago; answers how many. */
  Call<Integer> purgeExpired(long ageMillis);

  /** The native views' statements, or null when this engine keeps the generic constructions. */
  default ViewDialect views() {
    return null;
  }

  /** A statement that fails unless the table is readable; no parameters, no rows. */
  String probe();

  /** Creates the table and sequence if missing, safe against concurrent starters. */
  void createTable(Connection c, int querySeconds) throws SQLException;

  /**
   * The answer of an acquire in both engines: one row, the holder after the statement as four
   * columns from 1 (owner, data, token, micros left); {@code owner} holding it means granted.
   */
  static AcquireOutcome acquired(ResultSet rows, String owner) throws SQLException {
    if (!rows.next()) {
      throw new IllegalStateException("acquire returned no row");
    }
    if (rows.getString(1).equals(owner)) {
      return AcquireOutcome.granted(rows.getLong(3));
    }
    return AcquireOutcome.held(record(rows, 1));
  }

  /** A read by {@code sql} with the key as its one parameter: a record from column 1, if any. */
  static Call<Optional<LeaseRecord>> readCall(String sql, String key) {
    return new Call<>(
        sql,
        s -> s.setString(1, key),
        rows -> rows.next() ? Optional.of(record(rows, 1)) : Optional.empty());
  }

  /** Executes {@code statements} in order on one statement of {@code c}, each bounded. */
  static void executeAll(Connection c, int querySeconds, List<String> statements)
      throws SQLException {
    try (Statement s = c.createStatement()) {
      s.setQueryTimeout(querySeconds);
      for (String statement : statements) {
        s.execute(statement);
      }
    }
  }

  /** A record from four columns starting at {@code first}: owner, data, token, micros left. */
  static LeaseRecord record(ResultSet rows, int first) throws SQLException {
    long micros = rows.getLong(first + 3);
    return new LeaseRecord(
        StoredText.unescape(rows.getString(first)),
        StoredText.unescape(rows.getString(first + 1)),
        Duration.ofNanos(Math.max(1, micros) * 1000),
        rows.getLong(first + 2));
  }

  /** Counts the rows of an answer (one per deleted row). */
  static int countRows(ResultSet rows) throws SQLException {
    int n = 0;
    while (rows.next()) {
      n++;
    }
    return n;
  }
}
