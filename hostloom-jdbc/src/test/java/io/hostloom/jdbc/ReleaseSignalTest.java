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
import org.junit.jupiter.api.Test;

/**
 * LISTEN/NOTIFY wake-ups ({@link ReleaseSignal}): the testkit's {@link ReleaseSignalSuite} over
 * notifying backends on the shared database, plus PostgreSQL's own: notifications off, and a
 * listener connection that is killed and comes back.
 */
class ReleaseSignalTest extends ReleaseSignalSuite {
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

  /** Terminates the database sessions in LISTEN; the listeners connect again by themselves. */
  @Override
  protected boolean dropSignalConnection(LockBackend instance) throws Exception {
    try (Connection c = TestDatabase.server().connect(TestDatabase.NAME);
        Statement s = c.createStatement()) {
      s.execute(
          "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '"
              + TestDatabase.NAME
              + "' AND pid <> pg_backend_pid() AND query LIKE 'LISTEN %'");
    }
    return true;
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
}
