package io.hostloom.reliability;

import io.hostloom.jdbc.LockTable;
import io.hostloom.jdbc.MariaDbTestServer;
import io.hostloom.jdbc.SqlDialect;

/**
 * A private MariaDB server from the JDBC module's test fixture, durable (redo log flushed at every
 * commit), so a kill -9 loses no committed grant: what the scenarios check is the backend.
 */
final class MariaDbTarget extends SqlTarget {
  MariaDbTarget() {
    this(MariaDbTestServer.startNew("reliability", true));
  }

  private MariaDbTarget(MariaDbTestServer server) {
    super(
        "MariaDB",
        "mariadb",
        server,
        LockTable.defaults().ddlStatements(SqlDialect.MARIADB),
        server::stop,
        server::kill);
  }
}
