package io.hostloom.jdbc;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;

/**
 * A PostgreSQL server of its own with database {@code jobs}, an old library's table and HostLoom's
 * own, for the rolling-migration tests of other modules (test-jar). Close it after the class.
 */
public final class CompatDatabase implements AutoCloseable {
  private final PostgresTestServer server;
  private final HikariDataSource pool;

  private CompatDatabase(String name) {
    server = PostgresTestServer.startNew(name, false);
    server.createDatabase("jobs");
    HikariConfig config = new HikariConfig();
    config.setJdbcUrl(server.jdbcUrl("jobs"));
    config.setMaximumPoolSize(2);
    pool = new HikariDataSource(config);
    JdbcLockBackend.builder(pool).createTableIfMissing(true).build().close();
  }

  /** With ShedLock's table {@code shedlock} (its README's DDL). */
  public static CompatDatabase withShedLockTable(String name) {
    CompatDatabase db = new CompatDatabase(name);
    CompatTables.shedLock(db.pool, ShedLockTableBackend.DEFAULT_TABLE, false);
    return db;
  }

  /** With Spring Integration's table {@code INT_LOCK} (its {@code schema-postgresql.sql}). */
  public static CompatDatabase withIntLockTable(String name) {
    CompatDatabase db = new CompatDatabase(name);
    CompatTables.intLock(db.pool, IntLockTableBackend.DEFAULT_PREFIX, false);
    return db;
  }

  /** The JDBC URL of database {@code jobs}. */
  public String jdbcUrl() {
    return server.jdbcUrl("jobs");
  }

  @Override
  public void close() {
    pool.close();
    server.close();
  }
}
