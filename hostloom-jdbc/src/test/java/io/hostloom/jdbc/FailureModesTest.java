package io.hostloom.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import com.zaxxer.hikari.HikariDataSource;
import io.hostloom.locking.LockFailureKind;
import io.hostloom.locking.spi.LockBackendException;
import io.hostloom.testkit.TestTiming;
import io.hostloom.testkit.server.ServerProcess;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/**
 * Each failure kind produced by a real cause, and the bound on every call: the future completes
 * within the command timeout, and an {@code UNAVAILABLE} call was really never applied.
 */
class FailureModesTest {
  private static final Duration LONG = Duration.ofMinutes(5);
  private static final Duration WAIT = Duration.ofSeconds(20);

  @Test
  void aStatementBlockedOnTheServerTimesOut() throws Exception {
    String key = "blocked-" + UUID.randomUUID();
    try (JdbcLockBackend backend =
            TestDatabase.backend().commandTimeout(Duration.ofMillis(1500)).build();
        Connection blocker = TestDatabase.server().connect(TestDatabase.NAME)) {
      assertThat(get(backend.acquire(key, "a", "", Duration.ofMillis(1))).granted()).isTrue();
      blocker.setAutoCommit(false);
      try (Statement s = blocker.createStatement()) {
        // another transaction holds the row lock, so the acquire waits on the server
        s.execute("SELECT * FROM hostloom_locks WHERE lock_key = '" + key + "' FOR UPDATE");
        assertThat(failureOf(backend.acquire(key, "b", "", LONG)))
            .isEqualTo(LockFailureKind.TIMEOUT);
        // the JDBC query timeout then cancels the waiting statement on the server
        TestTiming.await("statement cancelled", () -> waitingStatements() == 0, WAIT);
      } finally {
        blocker.rollback();
      }
      // so nothing was granted to b, and the expired lease of a is free to take
      assertThat(get(backend.acquire(key, "c", "", LONG)).granted()).isTrue();
    }
  }

  @Test
  void noPooledConnectionInTimeIsUnavailableAndNeverApplied() throws Exception {
    String key = "starved-" + UUID.randomUUID();
    HikariDataSource pool =
        TestDatabase.server().pool(TestDatabase.NAME, 1, Duration.ofSeconds(30));
    try (JdbcLockBackend backend =
        JdbcLockBackend.builder(pool).commandTimeout(Duration.ofMillis(500)).build()) {
      CompletableFuture<?> starved;
      try (Connection only = pool.getConnection()) {
        assertThat(only.isValid(1)).as("the pool's only connection, held here").isTrue();
        starved = backend.acquire(key, "starved", "", LONG);
        assertThat(failureOf(starved)).isEqualTo(LockFailureKind.UNAVAILABLE);
      }
      // the worker got the connection afterwards but must not have sent the abandoned statement
      TestTiming.await(() -> get(backend.read("probe")).isEmpty(), WAIT);
      assertThat(get(backend.read(key))).as("no false grant").isEmpty();
    } finally {
      pool.close();
    }
  }

  @Test
  void aRefusedConnectionIsUnavailable() throws Exception {
    int closedPort = ServerProcess.freePort();
    HikariDataSource nowhere = new HikariDataSource();
    nowhere.setJdbcUrl("jdbc:postgresql://127.0.0.1:" + closedPort + "/none");
    nowhere.setUsername("postgres");
    nowhere.setConnectionTimeout(250);
    nowhere.setInitializationFailTimeout(-1);
    try (nowhere;
        JdbcLockBackend backend =
            JdbcLockBackend.builder(nowhere).commandTimeout(Duration.ofSeconds(3)).build()) {
      assertThat(failureOf(backend.acquire("k", "a", "", LONG)))
          .isEqualTo(LockFailureKind.UNAVAILABLE);
      assertThat(failureOf(backend.release("k", "a"))).isEqualTo(LockFailureKind.UNAVAILABLE);
      // the probe's answer to the same: JdbcHealthProbeTest
    }
  }

  @Test
  void aFullQueueRejectsAtOnceAsUnavailable() throws Exception {
    HikariDataSource pool =
        TestDatabase.server().pool(TestDatabase.NAME, 1, Duration.ofSeconds(30));
    try (JdbcLockBackend backend =
            JdbcLockBackend.builder(pool)
                .executorThreads(1)
                .maxQueuedCalls(1)
                .commandTimeout(Duration.ofSeconds(2))
                .build();
        Connection only = pool.getConnection()) {
      assertThat(only.isValid(1)).as("the pool's only connection, held here").isTrue();
      CompletableFuture<?> running = backend.read("a"); // the worker waits for the connection
      TestTiming.await(
          "the worker waits for a connection",
          () -> pool.getHikariPoolMXBean().getThreadsAwaitingConnection() == 1,
          WAIT);
      CompletableFuture<?> queued = backend.read("b"); // fills the queue of one
      CompletableFuture<?> rejected = backend.read("c");
      assertThat(rejected).isCompletedExceptionally();
      assertThat(failureOf(rejected)).isEqualTo(LockFailureKind.UNAVAILABLE);
      assertThat(failureOf(running)).isEqualTo(LockFailureKind.UNAVAILABLE);
      assertThat(failureOf(queued)).isEqualTo(LockFailureKind.UNAVAILABLE);
    } finally {
      pool.close();
    }
  }

  private static int waitingStatements() {
    try (Connection c = TestDatabase.server().connect(TestDatabase.NAME);
        Statement s = c.createStatement();
        java.sql.ResultSet r =
            s.executeQuery(
                "SELECT count(*) FROM pg_stat_activity WHERE state = 'active'"
                    + " AND wait_event_type = 'Lock' AND query LIKE 'INSERT INTO%hostloom_locks%'")) {
      r.next();
      return r.getInt(1);
    } catch (java.sql.SQLException e) {
      throw new IllegalStateException(e);
    }
  }

  static LockFailureKind failureOf(CompletableFuture<?> future) {
    try {
      TestTiming.get(future, WAIT);
    } catch (TestTiming.CompletionFailure e) {
      assertThat(e.getCause()).isInstanceOf(LockBackendException.class);
      return ((LockBackendException) e.getCause()).kind();
    }
    return fail("expected a failure but the call succeeded");
  }

  private static <T> T get(CompletableFuture<T> f) {
    return TestTiming.get(f, WAIT);
  }
}
