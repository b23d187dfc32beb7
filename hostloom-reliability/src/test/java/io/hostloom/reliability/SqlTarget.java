package io.hostloom.reliability;

import io.hostloom.jdbc.JdbcTestServer;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

/**
 * A private database server from the JDBC module's test-jar, with database {@value #DB} and the
 * default lock table created once, before any worker; records are the rows of that table.
 */
abstract class SqlTarget extends ServerTarget {
  static final String DB = "reliability";

  private final JdbcTestServer server;

  SqlTarget(
      String name,
      String type,
      JdbcTestServer server,
      List<String> ddl,
      Runnable stop,
      Runnable kill) {
    super(name, type, server.jdbcUrl(DB), server.port(), server::start, stop, kill, server::close);
    this.server = server;
    server.createDatabase(DB);
    try (Connection c = server.connect(DB);
        Statement s = c.createStatement()) {
      for (String statement : ddl) {
        s.execute(statement);
      }
    } catch (SQLException e) {
      throw new IllegalStateException("cannot create the lock table", e);
    }
  }

  @Override
  public long storedRecords() {
    try (Connection c = server.connect(DB);
        Statement s = c.createStatement();
        ResultSet r = s.executeQuery("SELECT count(*) FROM hostloom_locks")) {
      r.next();
      return r.getLong(1);
    } catch (SQLException e) {
      throw new IllegalStateException("cannot count the lock rows", e);
    }
  }
}
