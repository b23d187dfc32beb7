package io.hostloom.jdbc;

import java.sql.Connection;
import java.sql.SQLException;

/**
 * Public access to the JDBC module's {@code PostgresServer} test fixture (package-private there,
 * published in its test-jar), so other modules' tests (the reliability scenarios, the ShedLock
 * provider, the WOPI host's two-instance test) reuse it instead of copying it. Lives in the
 * fixture's package for that reason only.
 */
public final class PostgresTestServer implements JdbcTestServer {
  private final PostgresServer server;

  private PostgresTestServer(PostgresServer server) {
    this.server = server;
  }

  /**
   * A new PostgreSQL server on a free loopback port, started; the caller closes it.
   *
   * @param durable keep PostgreSQL's default durability, so an immediate stop loses no commit
   * @throws IllegalStateException saying how to install PostgreSQL when it cannot start
   */
  public static PostgresTestServer startNew(String name, boolean durable) {
    return new PostgresTestServer(PostgresServer.startNew(name, durable));
  }

  @Override
  public int port() {
    return server.port();
  }

  /** The server's version, e.g. {@code 14.10}, or "unknown". */
  public String version() {
    return server.version();
  }

  /** The JDBC URL of {@code database} (user {@code postgres}, no password). */
  @Override
  public String jdbcUrl(String database) {
    return server.jdbcUrl(database) + "?user=postgres";
  }

  /** Creates {@code database} unless it exists. */
  @Override
  public void createDatabase(String database) {
    server.createDatabase(database);
  }

  /** A plain connection to {@code database}. */
  @Override
  public Connection connect(String database) throws SQLException {
    return server.connect(database);
  }

  /** Starts the server again on the same port and data directory. */
  @Override
  public void start() {
    server.start();
  }

  /** Stops the server: {@code fast} closes sessions cleanly, {@code immediate} is a crash. */
  public void stop(String mode) {
    server.stop(mode);
  }

  @Override
  public void close() {
    server.close();
  }
}
