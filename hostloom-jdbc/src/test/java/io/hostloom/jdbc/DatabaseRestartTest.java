package io.hostloom.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariDataSource;
import io.hostloom.locking.LockFailureKind;
import io.hostloom.locking.spi.AcquireOutcome;
import io.hostloom.locking.spi.LockBackendException;
import io.hostloom.testkit.LockHistory;
import io.hostloom.testkit.TestTiming;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The database goes away under load and comes back, on a server of its own (durable settings):
 * calls fail only {@code UNAVAILABLE} or {@code TIMEOUT}, no statement reported {@code UNAVAILABLE}
 * was applied (an audit trigger records every write on the server), the history of holds has no
 * overlap and increasing tokens, and the same backends recover by themselves.
 */
class DatabaseRestartTest {
  private static final String DB = "restarts";
  private static final int THREADS = 6;
  private static final Duration LEASE = Duration.ofSeconds(2);
  private static final Duration WAIT = Duration.ofSeconds(60);

  private static PostgresServer server;
  private static HikariDataSource pool;

  @BeforeAll
  static void start() {
    server = PostgresServer.startNew("restart", true);
    server.createDatabase(DB);
    pool = server.pool(DB, 12, Duration.ofSeconds(1));
    JdbcLockBackend.builder(pool).createTableIfMissing(true).build().close();
    // test-only audit of every row write, to prove UNAVAILABLE statements were never applied
    server.execute(DB, "CREATE TABLE IF NOT EXISTS grant_audit (owner text NOT NULL)");
    server.execute(
        DB,
        "CREATE OR REPLACE FUNCTION audit_grant() RETURNS trigger LANGUAGE plpgsql AS"
            + " $$ BEGIN INSERT INTO grant_audit VALUES (NEW.owner); RETURN NEW; END $$");
    server.execute(
        DB,
        "CREATE OR REPLACE TRIGGER audit_grant AFTER INSERT OR UPDATE ON hostloom_locks"
            + " FOR EACH ROW EXECUTE FUNCTION audit_grant()");
  }

  @AfterAll
  static void stop() {
    server.close();
  }

  @ParameterizedTest(name = "pg_ctl stop -m {0}, then start")
  @ValueSource(strings = {"fast", "immediate"})
  void restartUnderLoad(String mode) throws Exception {
    try (Load load = new Load()) {
      load.awaitGrants(20);

      server.stop(mode);
      load.awaitFailuresInEveryThread();
      long grantsWhileDown = load.grants.get();
      try (JdbcLockBackend probe = newBackend()) {
        assertThat(TestTiming.get(probe.checkHealth(), WAIT).healthy()).isFalse();
        assertThat(kindOf(probe.acquire("down-" + UUID.randomUUID(), "x", "", LEASE)))
            .isIn(LockFailureKind.UNAVAILABLE, LockFailureKind.TIMEOUT);
      }
      assertThat(load.grants.get())
          .as("no grant while the server is down")
          .isEqualTo(grantsWhileDown);

      server.start();
      load.awaitGrantsInEveryThread();
      load.verify("stop -m " + mode);
      assertThat(load.unavailableOwners)
          .as("acquires answered UNAVAILABLE in the outage")
          .isNotEmpty();
    }
  }

  @Test
  void terminatedSessionsUnderLoad() throws Exception {
    try (Load load = new Load()) {
      for (int round = 0; round < 3; round++) {
        load.awaitGrants(load.grants.get() + 10);
        server.execute(
            DB,
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                + " WHERE datname = '"
                + DB
                + "' AND pid <> pg_backend_pid()");
      }
      load.awaitGrantsInEveryThread();
      load.verify("pg_terminate_backend x3");
    }
  }

  private static JdbcLockBackend newBackend() {
    return JdbcLockBackend.builder(pool).commandTimeout(Duration.ofSeconds(2)).build();
  }

  private static LockFailureKind kindOf(java.util.concurrent.CompletableFuture<?> f)
      throws InterruptedException, TimeoutException {
    try {
      f.get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
    } catch (ExecutionException e) {
      return ((LockBackendException) e.getCause()).kind();
    }
    throw new AssertionError("expected a failure");
  }

  /** Threads acquiring and releasing three keys over two backend instances, recording all. */
  private static final class Load implements AutoCloseable {
    final String prefix = "restart-" + UUID.randomUUID() + ":";
    final JdbcLockBackend[] backends = {newBackend(), newBackend()};
    final LockHistory history = new LockHistory();
    final AtomicLong grants = new AtomicLong();
    final Map<LockFailureKind, AtomicLong> failures = new ConcurrentHashMap<>();
    final Map<String, String> unavailableOwners = new ConcurrentHashMap<>();
    final Set<Throwable> unexpected = ConcurrentHashMap.newKeySet();
    final AtomicLongArray grantsByThread = new AtomicLongArray(THREADS);
    final AtomicLongArray failuresByThread = new AtomicLongArray(THREADS);
    final List<Thread> threads = new ArrayList<>();
    volatile boolean stopped;

    Load() {
      for (int i = 0; i < THREADS; i++) {
        int t = i;
        Thread thread = new Thread(() -> run(t), "load-" + t);
        thread.setDaemon(true);
        threads.add(thread);
        thread.start();
      }
    }

    private void run(int t) {
      JdbcLockBackend backend = backends[t % 2];
      long n = 0;
      while (!stopped) {
        String key = prefix + ThreadLocalRandom.current().nextInt(3);
        String owner = prefix + "t" + t + "-" + n++; // unique across runs: the audit is shared
        long sent = LockHistory.now();
        boolean granted = false;
        try {
          AcquireOutcome o = backend.acquire(key, owner, "", LEASE).get(30, TimeUnit.SECONDS);
          if (o.granted()) {
            granted = true;
            history.enter(key, owner, o.fencingToken(), sent, LEASE).exit();
            grantsByThread.incrementAndGet(t);
            grants.incrementAndGet();
            backend.release(key, owner).get(30, TimeUnit.SECONDS);
          } else {
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(5));
          }
        } catch (ExecutionException e) {
          if (e.getCause() instanceof LockBackendException failure) {
            failures.computeIfAbsent(failure.kind(), k -> new AtomicLong()).incrementAndGet();
            if (failure.kind() == LockFailureKind.UNAVAILABLE && !granted) {
              unavailableOwners.put(owner, String.valueOf(failure.getCause()));
            }
          } else {
            unexpected.add(e.getCause());
          }
          failuresByThread.incrementAndGet(t);
          LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(20));
        } catch (InterruptedException | TimeoutException | RuntimeException e) {
          unexpected.add(e); // a call that did not complete within its bound is a bug
        }
      }
    }

    void awaitGrants(long count) {
      TestTiming.await(count + " grants", () -> grants.get() >= count, WAIT);
    }

    void awaitFailuresInEveryThread() {
      awaitEveryThread("a new failure in every thread", failuresByThread);
    }

    void awaitGrantsInEveryThread() {
      awaitEveryThread("a new grant in every thread (recovery)", grantsByThread);
    }

    private static void awaitEveryThread(String what, AtomicLongArray counts) {
      long[] before = new long[THREADS];
      for (int t = 0; t < THREADS; t++) {
        before[t] = counts.get(t);
      }
      TestTiming.await(
          what,
          () -> {
            for (int t = 0; t < THREADS; t++) {
              if (counts.get(t) == before[t]) {
                return false;
              }
            }
            return true;
          },
          WAIT);
    }

    void verify(String scenario) throws SQLException {
      stopped = true;
      for (Thread thread : threads) {
        try {
          thread.join(WAIT.toMillis());
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }
      assertThat(unexpected).as("only backend failures, each within its bound").isEmpty();
      Map<LockFailureKind, Long> kinds = new EnumMap<>(LockFailureKind.class);
      failures.forEach((k, v) -> kinds.put(k, v.get()));
      System.out.println(
          scenario
              + ": grants "
              + grants.get()
              + ", failures "
              + kinds
              + ", UNAVAILABLE acquires checked against the audit "
              + unavailableOwners.size());
      assertThat(kinds).as("failure kinds").isNotEmpty().doesNotContainKey(LockFailureKind.OTHER);
      history.check().assertNoViolations();
      Set<String> applied = new HashSet<>();
      try (Connection c = pool.getConnection();
          Statement s = c.createStatement();
          ResultSet r = s.executeQuery("SELECT DISTINCT owner FROM grant_audit")) {
        while (r.next()) {
          applied.add(r.getString(1));
        }
      }
      Map<String, String> wronglyUnavailable = new java.util.TreeMap<>(unavailableOwners);
      wronglyUnavailable.keySet().retainAll(applied);
      assertThat(wronglyUnavailable)
          .as("acquires reported UNAVAILABLE that were applied anyway")
          .isEmpty();
    }

    @Override
    public void close() {
      stopped = true;
      for (JdbcLockBackend b : backends) {
        b.close();
      }
    }
  }
}
