package io.hostloom.jdbc;

import io.hostloom.locking.spi.AcquireOutcome;
import io.hostloom.locking.spi.ExtendOutcome;
import io.hostloom.locking.spi.LeaseRecord;
import io.hostloom.locking.spi.ReleaseOutcome;
import io.hostloom.locking.spi.ReplaceOutcome;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
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

  /** A statement that fails unless the table is readable; no parameters, no rows. */
  String probe();

  /** Creates the table and sequence if missing, safe against concurrent starters. */
  void createTable(Connection c, int querySeconds) throws SQLException;

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
