package io.hostloom.reliability;

import io.hostloom.jdbc.LockTable;
import io.hostloom.jdbc.PostgresTestServer;
import java.util.List;

/**
 * A private PostgreSQL server from the JDBC module's test fixture, with PostgreSQL's default
 * durability (fsync, synchronous commit), so an immediate stop loses no committed grant and no
 * sequence value: what the scenarios then check is the backend, not a database told to forget.
 */
final class PostgresTarget extends SqlTarget {
  PostgresTarget() {
    this(PostgresTestServer.startNew("reliability", true));
  }

  private PostgresTarget(PostgresTestServer server) {
    super(
        "PostgreSQL",
        "postgresql",
        server,
        List.of(LockTable.of("public", "hostloom_locks").ddl()),
        () -> server.stop("fast"),
        () -> server.stop("immediate"));
  }
}
