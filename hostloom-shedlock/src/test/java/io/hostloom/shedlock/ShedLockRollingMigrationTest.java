package io.hostloom.shedlock;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.hostloom.jdbc.CompatTables;
import io.hostloom.jdbc.JdbcLockBackend;
import io.hostloom.jdbc.PostgresTestServer;
import io.hostloom.testkit.migration.MigrationRun;
import io.hostloom.testkit.migration.OccurrenceLedger;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A rolling migration from ShedLock's JDBC provider on a real PostgreSQL: one JVM runs the job
 * through ShedLock's own {@code JdbcTemplateLockProvider}, another through {@code
 * HostLoomLockProvider} over {@code ShedLockTableBackend}, on ShedLock's table as ShedLock's README
 * creates it; every occurrence fires on both at once and the ledger shows it ran at most once, and
 * that both nodes ran some; so do the later steps of docs/migrating.md (step 1 with step 2, step 2
 * with step 3, {@link ShedLockMigrationConfig}). The self-checks show the same run with no lock,
 * and with HostLoom on its own table, does run occurrences twice.
 */
class ShedLockRollingMigrationTest {
  private static final Duration PERIOD = Duration.ofMillis(400);
  private static final int OCCURRENCES = 12;
  private static final Duration TIMEOUT = Duration.ofSeconds(90);

  private static PostgresTestServer server;
  private static HikariDataSource pool;

  @TempDir Path dir;

  @BeforeAll
  static void startDatabase() {
    server = PostgresTestServer.startNew("shedlock-compat", false);
    server.createDatabase("jobs");
    HikariConfig config = new HikariConfig();
    config.setJdbcUrl(server.jdbcUrl("jobs"));
    config.setMaximumPoolSize(2);
    pool = new HikariDataSource(config);
    CompatTables.shedLock(pool, ShedLockJobNode.TABLE, false);
    JdbcLockBackend.builder(pool).createTableIfMissing(true).build().close(); // for steps 2 and 3
  }

  @AfterAll
  static void stopDatabase() {
    if (pool != null) {
      pool.close();
    }
    if (server != null) {
      server.close();
    }
  }

  @Test
  void aShedLockNodeAndAHostLoomNodeOnShedLocksTableRunEachOccurrenceAtMostOnce() throws Exception {
    OccurrenceLedger.Verdict v = run("shedlock", "compat");
    v.assertExclusiveAndShared(List.of("old", "new"));
  }

  @Test
  void aStep1NodeAndAStep2NodeRunEachOccurrenceAtMostOnce() throws Exception {
    run("compat", "bridge").assertExclusiveAndShared(List.of("old", "new"));
  }

  @Test
  void aStep2NodeAndAStep3NodeRunEachOccurrenceAtMostOnce() throws Exception {
    run("bridge", "own").assertExclusiveAndShared(List.of("old", "new"));
  }

  @Test
  void selfCheckTwoUnlockedNodesDoRunOccurrencesTwice() throws Exception {
    assertThat(run("unlocked", "unlocked").doubleRuns()).isNotEmpty();
  }

  @Test
  void selfCheckHostLoomOnItsOwnTableDoesNotExcludeAShedLockNode() throws Exception {
    assertThat(run("shedlock", "own").doubleRuns()).isNotEmpty();
  }

  private OccurrenceLedger.Verdict run(String oldKind, String newKind) throws Exception {
    Path ledger = dir.resolve("ledger");
    Map<String, List<String>> nodes = new LinkedHashMap<>();
    nodes.put("old", args(oldKind, "old", ledger));
    nodes.put("new", args(newKind, "new", ledger));
    return MigrationRun.run(ShedLockJobNode.class, dir, ledger, nodes, TIMEOUT);
  }

  private static List<String> args(String kind, String node, Path ledger) {
    return List.of(
        kind,
        server.jdbcUrl("jobs"),
        node,
        ledger.toString(),
        Long.toString(PERIOD.toMillis()),
        Integer.toString(OCCURRENCES));
  }
}
