package io.hostloom.reliability;

import io.hostloom.jdbc.LockTable;
import io.hostloom.jdbc.MariaDbTestServer;
import io.hostloom.jdbc.SqlDialect;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;

/**
 * A private MariaDB server from the JDBC module's test fixture, durable (redo log flushed at every
 * commit), so a kill -9 loses no committed grant: what the scenarios check is the backend.
 */
final class MariaDbTarget implements RestartableTarget {
  private static final String DB = "reliability";

  private final MariaDbTestServer server = MariaDbTestServer.startNew("reliability", true);

  MariaDbTarget() {
    server.createDatabase(DB);
    try (Connection c = server.connect(DB);
        Statement s = c.createStatement()) {
      for (String ddl : LockTable.defaults().ddlStatements(SqlDialect.MARIADB)) {
        s.execute(ddl); // once, before any worker
      }
    } catch (SQLException e) {
      throw new IllegalStateException("cannot create the lock table", e);
    }
  }

  @Override
  public String name() {
    return "MariaDB";
  }

  @Override
  public BackendSpec spec() {
    return new BackendSpec("mariadb", server.jdbcUrl(DB), Duration.ofSeconds(2));
  }

  @Override
  public InetSocketAddress endpoint() {
    return new InetSocketAddress(InetAddress.getLoopbackAddress(), server.port());
  }

  @Override
  public BackendSpec specThrough(String host, int port) {
    return spec()
        .withAddress(server.jdbcUrl(DB).replace("127.0.0.1:" + server.port(), host + ":" + port));
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

  @Override
  public void stopServer(boolean crash) {
    if (crash) {
      server.kill();
    } else {
      server.stop();
    }
  }

  @Override
  public void startServer() {
    server.start();
  }

  @Override
  public void close() {
    server.close();
  }
}
