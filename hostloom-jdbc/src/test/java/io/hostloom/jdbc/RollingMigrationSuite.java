package io.hostloom.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import io.hostloom.testkit.migration.MigrationRun;
import io.hostloom.testkit.migration.OccurrenceLedger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * The rolling migration of docs/migrating.md over a compatibility layout, on a real PostgreSQL of
 * the suite's own (test-jar, for the adapter modules): each pair of neighbouring steps runs as two
 * JVMs of {@link #node()} ({@link MigrationRun#pair}), every occurrence firing on both at once, and
 * the shared ledger must show each occurrence at most once and both nodes running some. Node kinds:
 * {@link #oldKind()} (the old library), {@code compat} (HostLoom on its table), {@code bridge}
 * (both tables), {@code own} (HostLoom's own table), {@code unlocked}. The self-checks show that
 * the same run does double-run without exclusion.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
public abstract class RollingMigrationSuite {
  private static final Duration PERIOD = Duration.ofMillis(400);
  private static final int OCCURRENCES = 12;

  private CompatDatabase db;

  @TempDir Path dir;

  /** The node's {@code main} class. */
  protected abstract Class<?> node();

  /** The kind of node still on the old library. */
  protected abstract String oldKind();

  /** A fresh server with the old library's table. */
  protected abstract CompatDatabase startDatabase();

  @BeforeAll
  final void start() {
    db = startDatabase();
  }

  @AfterAll
  final void stop() {
    if (db != null) {
      db.close();
    }
  }

  @Test
  void anOldNodeAndAHostLoomNodeOnTheOldTableRunEachOccurrenceAtMostOnce() throws Exception {
    run(oldKind(), "compat").assertExclusiveAndShared(List.of("old", "new"));
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
  void selfCheckHostLoomOnItsOwnTableDoesNotExcludeAnOldNode() throws Exception {
    assertThat(run(oldKind(), "own").doubleRuns()).isNotEmpty();
  }

  private OccurrenceLedger.Verdict run(String oldKind, String newKind) throws Exception {
    Path run = Files.createTempDirectory(dir, oldKind + "-" + newKind); // a ledger per test
    return MigrationRun.pair(
        node(), run, oldKind, newKind, PERIOD, OCCURRENCES, List.of(db.jdbcUrl()));
  }
}
