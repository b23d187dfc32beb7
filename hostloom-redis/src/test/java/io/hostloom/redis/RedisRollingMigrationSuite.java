package io.hostloom.redis;

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
 * The rolling migration of docs/migrating.md over a Redis compatibility layout ({@link
 * RedisKeyLayout#shedLock}, {@link RedisKeyLayout#springIntegration}), on a real redis-server of
 * the suite's own (test-jar, for the adapter modules): each pair runs as two JVMs of {@link
 * #node()} ({@link MigrationRun#pair}, the extra argument is the server's URI), every occurrence
 * firing on both at once; the ledger must show each occurrence at most once and both nodes running
 * some. Node kinds: {@link #oldKind()} (the old library), {@code compat} (HostLoom on its keys),
 * {@code bridge} (both layouts), {@code own} (HostLoom's own layout). The self-check shows that the
 * same run does double-run when HostLoom keeps its own layout.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
public abstract class RedisRollingMigrationSuite {
  private static final Duration PERIOD = Duration.ofMillis(400);
  private static final int OCCURRENCES = 12;

  private RedisServerProcess redis;

  @TempDir Path dir;

  /** The node's {@code main} class. */
  protected abstract Class<?> node();

  /** The kind of node still on the old library. */
  protected abstract String oldKind();

  @BeforeAll
  final void start() {
    redis = RedisServerProcess.startNew();
  }

  @AfterAll
  final void stop() {
    if (redis != null) {
      redis.close();
    }
  }

  @Test
  void anOldNodeAndAHostLoomNodeOnTheOldKeysRunEachOccurrenceAtMostOnce() throws Exception {
    run(oldKind(), "compat").assertExclusiveAndShared(List.of("old", "new"));
  }

  @Test
  void aStep2NodeAndAStep3NodeRunEachOccurrenceAtMostOnce() throws Exception {
    run("bridge", "own").assertExclusiveAndShared(List.of("old", "new"));
  }

  @Test
  void selfCheckHostLoomOnItsOwnKeysDoesNotExcludeAnOldNode() throws Exception {
    assertThat(run(oldKind(), "own").doubleRuns()).isNotEmpty();
  }

  protected final OccurrenceLedger.Verdict run(String oldKind, String newKind) throws Exception {
    Path run = Files.createTempDirectory(dir, oldKind + "-" + newKind); // a ledger per test
    return MigrationRun.pair(
        node(), run, oldKind, newKind, PERIOD, OCCURRENCES, List.of(redis.uri()));
  }
}
