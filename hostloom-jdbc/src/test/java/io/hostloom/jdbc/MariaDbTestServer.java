package io.hostloom.jdbc;

import java.sql.Connection;
import java.sql.SQLException;

/**
 * Public access to the {@code MariaDbServer} test fixture (package-private, published in this
 * module's test-jar), so other modules' tests (the starter, the reliability scenarios) reuse it
 * instead of copying it. Lives in the fixture's package for that reason only.
 */
public final class MariaDbTestServer implements JdbcTestServer {
  private final MariaDbServer server;

  private MariaDbTestServer(MariaDbServer server) {
    this.server = server;
  }

  /**
   * A new MariaDB server on a free loopback port, started; the caller closes it.
   *
   * @param durable flush the redo log at every commit, so a kill -9 loses no commit
   * @throws IllegalStateException saying how to install MariaDB when it cannot start
   */
  public static MariaDbTestServer startNew(String name, boolean durable) {
    return new MariaDbTestServer(MariaDbServer.startNew(name, durable));
  }

  @Override
  public int port() {
    return server.port();
  }

  /** The JDBC URL of {@code database} (user {@code root}, no password). */
  @Override
  public String jdbcUrl(String database) {
    return server.jdbcUrl(database);
  }

  /** Creates {@code database} unless it exists. */
  @Override
  public void createDatabase(String database) {
    server.createDatabase(database);
  }

  @Override
  public Connection connect(String database) throws SQLException {
    return server.connect(database);
  }

  @Override
  public void start() {
    server.start();
  }

  /** A clean shutdown (SIGTERM). */
  public void stop() {
    server.stop();
  }

  /** kill -9. */
  public void kill() {
    server.kill();
  }

  @Override
  public void close() {
    server.close();
  }
}
