package io.hostloom.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariDataSource;
import io.hostloom.testkit.TestTiming;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Every operation, in every outcome, is exactly one statement: counted on the JDBC level (one
 * borrowed connection, one execute) and on the server by {@code pg_stat_statements} (one statement
 * executed in the database), so no driver-internal query hides behind the execute.
 */
class RoundTripTest {
  private static final String DB = "roundtrips";
  private static final Duration LONG = Duration.ofSeconds(60);
  private static final Duration WAIT = Duration.ofSeconds(10);

  private static PostgresServer server;
  private static CountingDataSource counting;
  private static JdbcLockBackend backend;
  private static JdbcLockBackend notifying;
  private static long dbid;

  @BeforeAll
  static void start() throws SQLException {
    server = TestDatabase.server();
    server.createDatabase(DB);
    server.execute("postgres", "CREATE EXTENSION IF NOT EXISTS pg_stat_statements");
    HikariDataSource pool = server.pool(DB, 4, Duration.ofSeconds(5));
    JdbcLockBackend.builder(pool).createTableIfMissing(true).build().close();
    counting = new CountingDataSource(pool);
    backend = JdbcLockBackend.builder(counting).build();
    notifying =
        JdbcLockBackend.builder(counting)
            .releaseNotifications(true)
            .listenerDataSource(pool)
            .build();
    try (Connection c = server.connect("postgres");
        Statement s = c.createStatement();
        ResultSet r = s.executeQuery("SELECT oid FROM pg_database WHERE datname = '" + DB + "'")) {
      r.next();
      dbid = r.getLong(1);
    }
  }

  @AfterAll
  static void stop() {
    backend.close();
    notifying.close();
  }

  @Test
  void everyOperationIsOneStatementInEveryOutcome() throws SQLException {
    String key = "rt-" + UUID.randomUUID();
    String a = "a-" + UUID.randomUUID();
    String b = "b-" + UUID.randomUUID();
    Map<String, Supplier<CompletableFuture<?>>> ops = new LinkedHashMap<>();
    ops.put("acquire (free: granted)", () -> backend.acquire(key, a, "d", LONG));
    ops.put("acquire (same owner: refreshed)", () -> backend.acquire(key, a, "d", LONG));
    ops.put("acquire (held: holder returned)", () -> backend.acquire(key, b, "d", LONG));
    ops.put("extend (owner)", () -> backend.extend(key, a, LONG));
    ops.put("extend (not owner)", () -> backend.extend(key, b, LONG));
    ops.put("read (live)", () -> backend.read(key));
    ops.put("replace (mismatch)", () -> backend.replace(key, b, a, "x", LONG));
    ops.put("replace (swapped)", () -> backend.replace(key, a, b, "x", LONG));
    ops.put("release (not owner)", () -> backend.release(key, a));
    ops.put("release (owner)", () -> backend.release(key, b));
    ops.put("read (free)", () -> backend.read(key));
    ops.put("replace (absent)", () -> backend.replace(key, a, b, "x", LONG));
    ops.put("acquire (again, notifying backend)", () -> notifying.acquire(key, a, "d", LONG));
    ops.put("release (owner, with pg_notify)", () -> notifying.release(key, a));
    ops.put("purgeExpired", () -> backend.purgeExpired(Duration.ofDays(1)));
    ops.put("checkHealth", () -> backend.checkHealth());

    // warm the pool so that no connection is opened inside a measured operation
    TestTiming.get(backend.read("warm-up"), WAIT);
    TestTiming.await("listening", notifying::isListeningForReleases, WAIT);

    StringBuilder table =
        new StringBuilder("operation | connections | JDBC executes | server statements\n");
    for (Map.Entry<String, Supplier<CompletableFuture<?>>> op : ops.entrySet()) {
      resetServerCounts();
      counting.reset();
      TestTiming.get(op.getValue().get(), WAIT);
      long statements = serverStatements();
      table
          .append(op.getKey())
          .append(" | ")
          .append(counting.connections())
          .append(" | ")
          .append(counting.executions())
          .append(" | ")
          .append(statements)
          .append('\n');
      assertThat(counting.connections()).as("%s: connections borrowed", op.getKey()).isEqualTo(1);
      assertThat(counting.executions()).as("%s: JDBC executes", op.getKey()).isEqualTo(1);
      assertThat(statements).as("%s: statements run by the server", op.getKey()).isEqualTo(1);
    }
    System.out.print(table);
  }

  private static void resetServerCounts() throws SQLException {
    try (Connection c = server.connect("postgres");
        Statement s = c.createStatement()) {
      s.execute("SELECT pg_stat_statements_reset()");
    }
  }

  private static long serverStatements() throws SQLException {
    try (Connection c = server.connect("postgres");
        Statement s = c.createStatement();
        ResultSet r =
            s.executeQuery(
                "SELECT coalesce(sum(calls), 0) FROM pg_stat_statements WHERE dbid = "
                    + dbid
                    // the notifying backend's listener: LISTEN once, SELECT 1 when idle
                    + " AND query <> 'SELECT 1' AND query NOT LIKE 'LISTEN %'")) {
      r.next();
      return r.getLong(1);
    }
  }
}
