package io.hostloom.cli;

import io.hostloom.jdbc.PostgresTestServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code hostloom lock} on a real PostgreSQL, by its {@code jdbc:} and {@code postgresql://} URL.
 */
class PostgresLockCommandTest extends LockCommandContract {
  private static PostgresTestServer server;

  @BeforeAll
  static void startServer() {
    server = PostgresTestServer.startNew("cli", false);
  }

  @AfterAll
  static void stopServer() {
    if (server != null) {
      server.close();
    }
  }

  @Override
  String backendUri() {
    return server.jdbcUrl("postgres");
  }

  @Test
  void thePostgresqlUrlFormWorksToo() {
    Hostloom.run(
            dir,
            env(),
            "lock",
            "--backend",
            server
                .jdbcUrl("postgres")
                .replace("jdbc:postgresql://", "postgresql://postgres@")
                .replace("?user=postgres", ""),
            "url-job",
            "--",
            "true")
        .assertExit(0);
  }
}
