package io.hostloom.reliability;

import io.hostloom.jdbc.LockTable;
import io.hostloom.jdbc.PostgresTestServer;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;

/**
 * A private PostgreSQL server from the JDBC module's test fixture, with PostgreSQL's default
 * durability (fsync, synchronous commit), so an immediate stop loses no committed grant and no
 * sequence value: what the scenarios then check is the backend, not a database told to forget.
 */
final class PostgresTarget implements RestartableTarget {
  private static final String DB = "reliability";

  private final PostgresTestServer server = PostgresTestServer.startNew("reliability", true);

  PostgresTarget() {
    server.createDatabase(DB);
    try (Connection c = server.connect(DB);
        Statement s = c.createStatement()) {
      s.execute(LockTable.of("public", "hostloom_locks").ddl()); // once, before any worker
    } catch (SQLException e) {
      throw new IllegalStateException("cannot create the lock table", e);
    }
  }

  @Override
  public String name() {
    return "PostgreSQL";
  }

  @Override
  public BackendSpec spec() {
    return new BackendSpec("postgresql", server.jdbcUrl(DB), Duration.ofSeconds(2));
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
        Statement s = c.createStatement()) {
      try (ResultSet r = s.executeQuery("SELECT count(*) FROM hostloom_locks")) {
        r.next();
        return r.getLong(1);
      }
    } catch (SQLException e) {
      throw new IllegalStateException("cannot count the lock rows", e);
    }
  }

  @Override
  public void stopServer(boolean crash) {
    server.stop(crash ? "immediate" : "fast");
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
