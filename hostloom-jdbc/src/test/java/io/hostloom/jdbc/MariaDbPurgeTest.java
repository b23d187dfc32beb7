package io.hostloom.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import io.hostloom.testkit.TestTiming;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/**
 * {@code purgeExpired} on a MariaDB table of a few hundred thousand ended rows while a lease on the
 * same table is extended. One {@code DELETE} over the whole table under REPEATABLE READ (the
 * engine's default) takes a next-key lock on every row and gap it scans and keeps them until it
 * commits, so every lock statement on the table waits for the whole purge. The purge runs in short
 * batches instead, so the extends answer while it is still going; checked by order (the purge is
 * still running when the extends have answered), never by a duration.
 */
class MariaDbPurgeTest {
  private static final int ENDED_ROWS = 300_000;
  private static final Duration WAIT = Duration.ofSeconds(120);

  @Test
  void extendsAnswerWhileAPurgeOfHundredsOfThousandsOfRowsRuns() throws Exception {
    String table = "hl_purge_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
    try (JdbcLockBackend backend =
        MariaDbTestDatabase.backend()
            .table(table)
            .createTableIfMissing(true)
            .commandTimeout(Duration.ofSeconds(60))
            .build()) {
      // sorts before the ended rows: a scan in key order reaches it first
      String live = "a-live-" + UUID.randomUUID();
      assertThat(get(backend.acquire(live, "holder", "", Duration.ofMinutes(10))).granted())
          .isTrue();
      long start = System.nanoTime();
      execute(
          "INSERT INTO "
              + table
              + " (lock_key, owner, data, fencing_token, acquired_at, expires_at)"
              + " SELECT CONCAT('ended-', seq), '', '', 0, UTC_TIMESTAMP(6) - INTERVAL 1 DAY,"
              + " '1000-01-01 00:00:00' FROM seq_1_to_"
              + ENDED_ROWS);
      System.out.printf(
          "[purge] %d ended rows inserted in %d ms%n",
          ENDED_ROWS, (System.nanoTime() - start) / 1_000_000);

      start = System.nanoTime();
      CompletableFuture<Integer> purge = backend.purgeExpired(Duration.ofHours(1));
      TestTiming.await("the purge is deleting", () -> purge.isDone() || purging(table), WAIT);
      for (int i = 0; i < 5; i++) {
        assertThat(get(backend.extend(live, "holder", Duration.ofMinutes(10))).extended()).isTrue();
      }
      boolean runningAfterExtends = !purge.isDone();
      int purged = get(purge);
      System.out.printf(
          "[purge] %d rows purged in %d ms; still running when 5 extends had answered: %s%n",
          purged, (System.nanoTime() - start) / 1_000_000, runningAfterExtends);
      assertThat(runningAfterExtends)
          .as("the purge was still running when the extends had answered")
          .isTrue();
      assertThat(purged).isEqualTo(ENDED_ROWS);
      assertThat(get(backend.read(live)))
          .hasValueSatisfying(r -> assertThat(r.owner()).isEqualTo("holder"));
    } finally {
      execute("DROP TABLE IF EXISTS " + table);
      execute("DROP SEQUENCE IF EXISTS " + table + "_fence_seq");
    }
  }

  /** A DELETE on the table is running, or rows are gone already (a batch committed). */
  private static boolean purging(String table) {
    try (Connection c = MariaDbTestDatabase.pool().getConnection();
        Statement s = c.createStatement()) {
      try (ResultSet r =
          s.executeQuery(
              "SELECT COUNT(*) FROM information_schema.PROCESSLIST WHERE INFO LIKE '%DELETE FROM %"
                  + table
                  + "%' AND INFO NOT LIKE '%PROCESSLIST%'")) {
        r.next();
        if (r.getInt(1) > 0) {
          return true;
        }
      }
      try (ResultSet r = s.executeQuery("SELECT COUNT(*) FROM " + table)) {
        r.next();
        return r.getInt(1) < ENDED_ROWS + 1;
      }
    } catch (SQLException e) {
      throw new IllegalStateException(e);
    }
  }

  private static void execute(String sql) throws SQLException {
    try (Connection c = MariaDbTestDatabase.pool().getConnection();
        Statement s = c.createStatement()) {
      s.setQueryTimeout(120);
      s.execute(sql);
    }
  }

  private static <T> T get(CompletableFuture<T> f) {
    return TestTiming.get(f, WAIT);
  }
}
