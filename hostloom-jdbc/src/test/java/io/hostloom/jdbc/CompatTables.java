package io.hostloom.jdbc;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import javax.sql.DataSource;

/**
 * The old libraries' lock tables on PostgreSQL, for the compatibility-layout tests here and in
 * other modules (test-jar). {@link #shedLock} is ShedLock's README DDL for PostgreSQL, {@link
 * #intLock} Spring Integration 7's {@code schema-postgresql.sql}; the {@code wide} forms only widen
 * the text columns to the SPI's lengths, for the conformance suites.
 */
public final class CompatTables {
  private CompatTables() {}

  /** Creates ShedLock's table {@code name} unless it exists. */
  public static void shedLock(DataSource ds, String name, boolean wide) {
    execute(
        ds,
        "CREATE TABLE IF NOT EXISTS "
            + name
            + " (name VARCHAR("
            + (wide ? "2000" : "64")
            + ") NOT NULL, lock_until TIMESTAMP NOT NULL, locked_at TIMESTAMP NOT NULL,"
            + " locked_by "
            + (wide ? "TEXT" : "VARCHAR(255)")
            + " NOT NULL, PRIMARY KEY (name))");
  }

  /** Creates Spring Integration's table {@code prefix + "LOCK"} unless it exists. */
  public static void intLock(DataSource ds, String prefix, boolean wide) {
    execute(
        ds,
        "CREATE TABLE IF NOT EXISTS "
            + prefix
            + "LOCK (LOCK_KEY CHAR(36) NOT NULL, REGION VARCHAR(100) NOT NULL, CLIENT_ID "
            + (wide ? "TEXT" : "CHAR(36)")
            + ", CREATED_DATE TIMESTAMP NOT NULL, EXPIRED_AFTER TIMESTAMP NOT NULL,"
            + " constraint "
            + prefix
            + "LOCK_PK primary key (LOCK_KEY, REGION))");
  }

  private static void execute(DataSource ds, String sql) {
    try (Connection c = ds.getConnection();
        Statement s = c.createStatement()) {
      s.execute(sql);
    } catch (SQLException e) {
      throw new IllegalStateException("could not run: " + sql, e);
    }
  }
}
