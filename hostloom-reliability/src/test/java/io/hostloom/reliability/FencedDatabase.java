package io.hostloom.reliability;

import io.hostloom.jdbc.PostgresTestServer;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * The PostgreSQL database holding the {@link PostgresFencedResource} of the stale-writer scenarios,
 * for every backend: one server per test JVM, started on first use, stopped by the fixture's
 * shutdown hook. Separate from the PostgreSQL backend's own server, which the outage scenario
 * stops.
 */
final class FencedDatabase {
  private static final String DB = "fenced";
  private static String url;

  private FencedDatabase() {}

  /** The JDBC URL of the fenced resource's database, with its table created. */
  static synchronized String url() {
    if (url == null) {
      PostgresTestServer server = PostgresTestServer.startNew("fenced", false);
      server.createDatabase(DB);
      try (Connection c = server.connect(DB);
          Statement s = c.createStatement()) {
        s.execute(PostgresFencedResource.DDL);
      } catch (SQLException e) {
        throw new IllegalStateException("cannot create the fenced resource table", e);
      }
      url = server.jdbcUrl(DB);
    }
    return url;
  }

  /** The resource address for {@link FencedResource#open}. */
  static String address() {
    return url();
  }
}
