package io.hostloom.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import io.hostloom.locking.spi.AcquireOutcome;
import io.hostloom.locking.spi.ReplaceOutcome;
import io.hostloom.testkit.TestTiming;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A grant decided after another grant of the same key carries a larger token, even when its
 * statement started before that other grant. The interleaving is forced: a transaction of the test
 * holds the key's row lock while the statement under test waits for it, and meanwhile grants the
 * key to someone else (with the backend's own SQL) and releases it again; the waiting statement is
 * decided only after that commit, so its token must be larger than the one granted meanwhile.
 */
class TokenOrderTest {
  private static final Duration LONG = Duration.ofMinutes(5);
  private static final Duration WAIT = Duration.ofSeconds(20);

  private final JdbcLockBackend backend = TestDatabase.backend().build();
  private final PostgresDialect dialect =
      new PostgresDialect(LockTable.of("public", "hostloom_locks"));

  @AfterEach
  void close() {
    backend.close();
  }

  @Test
  void anAcquireThatWaitedOutAGrantAndAReleaseTakesALargerToken() throws SQLException {
    String key = "order-acquire-" + UUID.randomUUID();
    assertThat(get(backend.acquire(key, "h", "", LONG)).granted()).isTrue();
    try (Connection tx = lockRow(key)) {
      CompletableFuture<AcquireOutcome> a = backend.acquire(key, "a", "", LONG);
      awaitBlockedBy(tx);
      assertThat(release(tx, key, "h")).isTrue();
      long granted = acquire(tx, key, "b");
      assertThat(release(tx, key, "b")).isTrue();
      tx.commit();

      AcquireOutcome outcome = get(a);
      assertThat(outcome.granted()).isTrue();
      assertThat(outcome.fencingToken())
          .as("granted after b's grant (token %d) was committed", granted)
          .isGreaterThan(granted);
    }
  }

  @Test
  void aReplaceThatWaitedOutAReleaseAndANewGrantTakesALargerToken() throws SQLException {
    String key = "order-replace-" + UUID.randomUUID();
    assertThat(get(backend.acquire(key, "h", "", LONG)).granted()).isTrue();
    try (Connection tx = lockRow(key)) {
      CompletableFuture<ReplaceOutcome> r = backend.replace(key, "h", "r", "", LONG);
      awaitBlockedBy(tx);
      assertThat(release(tx, key, "h")).isTrue();
      long granted = acquire(tx, key, "h"); // the same owner again: a fresh grant
      tx.commit();

      ReplaceOutcome outcome = get(r);
      assertThat(outcome.replaced()).isTrue();
      assertThat(outcome.fencingToken())
          .as("swapped after h's new grant (token %d) was committed", granted)
          .isGreaterThan(granted);
    }
  }

  /** A connection in an open transaction that holds the row lock of {@code key}. */
  private static Connection lockRow(String key) throws SQLException {
    Connection c = TestDatabase.pool().getConnection();
    c.setAutoCommit(false);
    try (PreparedStatement s =
        c.prepareStatement("SELECT 1 FROM hostloom_locks WHERE lock_key = ? FOR UPDATE")) {
      s.setString(1, key);
      try (ResultSet rows = s.executeQuery()) {
        assertThat(rows.next()).isTrue();
      }
    }
    return c;
  }

  /** Waits until some session waits for a lock held by {@code tx}'s session. */
  private static void awaitBlockedBy(Connection tx) throws SQLException {
    int pid;
    try (PreparedStatement s = tx.prepareStatement("SELECT pg_backend_pid()");
        ResultSet rows = s.executeQuery()) {
      rows.next();
      pid = rows.getInt(1);
    }
    TestTiming.await(
        "the statement under test waits for the row lock",
        () -> {
          try (Connection c = TestDatabase.pool().getConnection();
              PreparedStatement s =
                  c.prepareStatement(
                      "SELECT count(*) FROM pg_stat_activity WHERE ? = ANY(pg_blocking_pids(pid))")) {
            s.setInt(1, pid);
            try (ResultSet rows = s.executeQuery()) {
              rows.next();
              return rows.getInt(1) > 0;
            }
          } catch (SQLException e) {
            throw new IllegalStateException(e);
          }
        },
        WAIT);
  }

  private long acquire(Connection tx, String key, String owner) throws SQLException {
    try (PreparedStatement s =
        tx.prepareStatement(dialect.acquire(key, owner, "", LONG.toMillis()).sql())) {
      s.setString(1, key);
      s.setString(2, owner);
      s.setString(3, "");
      s.setLong(4, LONG.toMillis());
      try (ResultSet rows = s.executeQuery()) {
        assertThat(rows.next()).isTrue();
        assertThat(rows.getString(1)).as("granted to %s", owner).isEqualTo(owner);
        return rows.getLong(3);
      }
    }
  }

  private boolean release(Connection tx, String key, String owner) throws SQLException {
    try (PreparedStatement s = tx.prepareStatement(dialect.release(key, owner, false).sql())) {
      s.setString(1, owner);
      s.setString(2, key);
      try (ResultSet rows = s.executeQuery()) {
        return rows.next() && rows.getBoolean(1);
      }
    }
  }

  private static <T> T get(CompletableFuture<T> f) {
    return TestTiming.get(f, WAIT);
  }
}
