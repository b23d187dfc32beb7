package io.hostloom.integration;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.hostloom.jdbc.CompatTables;
import io.hostloom.jdbc.IntLockTableBackend;
import io.hostloom.jdbc.JdbcLockBackend;
import io.hostloom.jdbc.PostgresTestServer;
import io.hostloom.testkit.migration.MigrationRun;
import io.hostloom.testkit.migration.OccurrenceLedger;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.integration.util.UUIDConverter;

/**
 * A rolling migration from Spring Integration's {@code JdbcLockRegistry} on a real PostgreSQL: one
 * JVM guards the job with Spring's registry, another with {@code HostLoomLockRegistry} over {@code
 * IntLockTableBackend}, on {@code INT_LOCK} as Spring's {@code schema-postgresql.sql} creates it;
 * every occurrence fires on both at once and the ledger shows it ran at most once, and that both
 * nodes ran some; so do the later steps of docs/migrating.md (step 1 with step 2, step 2 with step
 * 3, {@link IntLockMigrationConfig}). The self-checks show the same run with no lock, and with
 * HostLoom on its own table, does run occurrences twice.
 */
class IntLockRollingMigrationTest {
  private static final Duration PERIOD = Duration.ofMillis(400);
  private static final int OCCURRENCES = 12;
  private static final Duration TIMEOUT = Duration.ofSeconds(90);

  private static PostgresTestServer server;
  private static HikariDataSource pool;

  @TempDir Path dir;

  @BeforeAll
  static void startDatabase() {
    server = PostgresTestServer.startNew("int-lock-compat", false);
    server.createDatabase("jobs");
    HikariConfig config = new HikariConfig();
    config.setJdbcUrl(server.jdbcUrl("jobs"));
    config.setMaximumPoolSize(2);
    pool = new HikariDataSource(config);
    CompatTables.intLock(pool, IntLockTableBackend.DEFAULT_PREFIX, false);
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
  void aSpringNodeAndAHostLoomNodeOnIntLockRunEachOccurrenceAtMostOnce() throws Exception {
    run("spring", "compat").assertExclusiveAndShared(List.of("old", "new"));
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
  void selfCheckHostLoomOnItsOwnTableDoesNotExcludeASpringNode() throws Exception {
    assertThat(run("spring", "own").doubleRuns()).isNotEmpty();
  }

  @Test
  void lockKeysMapToTheRowsSpringUses() {
    for (String key :
        List.of(
            "report-job",
            "Ünïcödé-🔒",
            UUID.randomUUID().toString(),
            UUID.randomUUID().toString().toUpperCase(java.util.Locale.ROOT),
            "1-2-3-4-5",
            "x".repeat(5000))) {
      assertThat(IntLockTableBackend.lockKeyOf(key))
          .as(key)
          .isEqualTo(UUIDConverter.getUUID(key).toString());
    }
  }

  private OccurrenceLedger.Verdict run(String oldKind, String newKind) throws Exception {
    Path ledger = dir.resolve("ledger");
    Map<String, List<String>> nodes = new LinkedHashMap<>();
    nodes.put("old", args(oldKind, "old", ledger));
    nodes.put("new", args(newKind, "new", ledger));
    return MigrationRun.run(IntLockJobNode.class, dir, ledger, nodes, TIMEOUT);
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
