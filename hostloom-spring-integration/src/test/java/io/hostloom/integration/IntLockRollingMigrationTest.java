package io.hostloom.integration;

import static org.assertj.core.api.Assertions.assertThat;

import io.hostloom.jdbc.CompatDatabase;
import io.hostloom.jdbc.IntLockTableBackend;
import io.hostloom.testkit.migration.MigrationRun;
import io.hostloom.testkit.migration.OccurrenceLedger;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
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
  private static CompatDatabase db;

  @TempDir Path dir;

  @BeforeAll
  static void startDatabase() {
    db = CompatDatabase.withIntLockTable("int-lock-compat");
  }

  @AfterAll
  static void stopDatabase() {
    if (db != null) {
      db.close();
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
    return MigrationRun.pair(
        IntLockJobNode.class, dir, oldKind, newKind, PERIOD, OCCURRENCES, List.of(db.jdbcUrl()));
  }
}
