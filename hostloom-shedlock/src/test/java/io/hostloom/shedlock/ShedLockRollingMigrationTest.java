package io.hostloom.shedlock;

import static org.assertj.core.api.Assertions.assertThat;

import io.hostloom.jdbc.CompatDatabase;
import io.hostloom.testkit.migration.MigrationRun;
import io.hostloom.testkit.migration.OccurrenceLedger;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
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
  private static CompatDatabase db;

  @TempDir Path dir;

  @BeforeAll
  static void startDatabase() {
    db = CompatDatabase.withShedLockTable("shedlock-compat");
  }

  @AfterAll
  static void stopDatabase() {
    if (db != null) {
      db.close();
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
    return MigrationRun.pair(
        ShedLockJobNode.class, dir, oldKind, newKind, PERIOD, OCCURRENCES, List.of(db.jdbcUrl()));
  }
}
