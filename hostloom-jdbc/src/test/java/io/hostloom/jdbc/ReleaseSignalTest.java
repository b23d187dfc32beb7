package io.hostloom.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import io.hostloom.locking.spi.LockBackend;
import io.hostloom.locking.spi.ReleaseSignal;
import io.hostloom.testkit.TestTiming;
import io.hostloom.testkit.capability.ReleaseSignalSuite;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.OptionalInt;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/**
 * LISTEN/NOTIFY wake-ups ({@link ReleaseSignal}): the testkit's {@link ReleaseSignalSuite} over
 * notifying backends on the shared database, plus PostgreSQL's own: notifications off, and a
 * listener connection that is killed and comes back.
 */
class ReleaseSignalTest extends ReleaseSignalSuite {
  private static final Duration LONG = Duration.ofMinutes(5);
  private static final Duration WAIT = Duration.ofSeconds(20);

  @Override
  protected LockBackend newBackend() {
    return TestDatabase.notifyingBackend().build();
  }

  @Override
  protected void awaitSignalReady(LockBackend instance) {
    JdbcLockBackend b = (JdbcLockBackend) instance;
    TestTiming.await("listening", b::isListeningForReleases, WAIT);
  }

  @Override
  protected OptionalInt pendingWaits(LockBackend instance) {
    return OptionalInt.of(((JdbcLockBackend) instance).pendingReleaseWaits());
  }

  @Override
  protected boolean replaceAnnounces() {
    return false; // "replace sends nothing: the key stays held" (README)
  }

  @Test
  void withNotificationsOffOnlyMaxWaitEndsTheWait() {
    try (JdbcLockBackend quiet = TestDatabase.backend().build()) {
      assertThat(quiet.isListeningForReleases()).isFalse();
      assertThat(get(quiet.awaitRelease("k", Duration.ofMillis(100)))).isFalse();
    }
  }

  @Test
  void theListenerReconnectsAndWakesWaitersThatMayHaveMissedAReleaseMeanwhile() throws Exception {
    LockBackend holder = instance();
    JdbcLockBackend waiter = (JdbcLockBackend) instance();
    String key = "signal-" + UUID.randomUUID();
    get(holder.acquire(key, "a", "", LONG));
    CompletableFuture<Boolean> before = waiter.awaitRelease(key, LONG);
    try (Connection c = TestDatabase.server().connect(TestDatabase.NAME);
        Statement s = c.createStatement()) {
      s.execute(
          "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '"
              + TestDatabase.NAME
              + "' AND pid <> pg_backend_pid() AND query LIKE 'LISTEN %'");
    }
    assertThat(get(before)).as("woken: a release may have been missed").isTrue();
    TestTiming.await("listening again", waiter::isListeningForReleases, WAIT);
    CompletableFuture<Boolean> after = waiter.awaitRelease(key, LONG);
    get(holder.release(key, "a"));
    assertThat(get(after)).isTrue();
  }
}
