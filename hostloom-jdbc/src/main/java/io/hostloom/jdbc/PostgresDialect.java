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

/** PostgreSQL: the statements of {@link LockStatements}, their parameters and their rows. */
final class PostgresDialect implements Dialect {
  private final LockTable table;
  private final LockStatements sql;

  PostgresDialect(LockTable table) {
    this.table = table;
    this.sql = new LockStatements(table);
  }

  @Override
  public String name() {
    return "postgresql";
  }

  @Override
  public Call<AcquireOutcome> acquire(String key, String owner, String data, long leaseMillis) {
    return new Call<>(
        sql.acquire,
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
        sql.extend,
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
        notify ? sql.releaseAndNotify : sql.release,
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
        sql.replace,
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
    return Dialect.readCall(sql.read, key);
  }

  @Override
  public Call<Integer> purgeExpired(long ageMillis) {
    return new Call<>(sql.purgeExpired, s -> s.setLong(1, ageMillis), Dialect::countRows);
  }

  @Override
  public String probe() {
    return sql.probe;
  }

  @Override
  public void createTable(Connection c, int querySeconds) throws SQLException {
    List<String> statements = new ArrayList<>();
    // a transaction-scoped lock: concurrent starters do not race on CREATE ... IF NOT EXISTS
    statements.add("SELECT pg_advisory_xact_lock(hashtext('" + table.qualifiedTable() + "'))");
    statements.addAll(table.ddlStatements());
    Dialect.executeAll(c, querySeconds, statements);
  }
}
