package io.hostloom.jdbc;

import java.sql.Connection;
import java.sql.SQLException;

/**
 * What every database server of this module's test-jar offers ({@link MariaDbTestServer}, {@link
 * PostgresTestServer}), so other modules' tests can set up and inspect either the same way. Each
 * server keeps its port and data across {@link #start()} after a stop.
 */
public interface JdbcTestServer extends AutoCloseable {
  /** The loopback port the server listens on. */
  int port();

  /** The JDBC URL of {@code database}, with the user; its host is {@code 127.0.0.1:port()}. */
  String jdbcUrl(String database);

  /** Creates {@code database} unless it exists. */
  void createDatabase(String database);

  /** A plain connection to {@code database}. */
  Connection connect(String database) throws SQLException;

  /** Starts the server again on the same port and data directory; no-op while it runs. */
  void start();

  /** Stops the server for good and deletes its data. */
  @Override
  void close();
}
