package io.hostloom.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.zaxxer.hikari.HikariDataSource;
import io.hostloom.testkit.TestTiming;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * The release listener's connection, on a real PostgreSQL: it does not come from the operations
 * pool unless given explicitly, and it never goes back to its pool still listening.
 */
class ListenerConnectionTest {
  private static final Duration WAIT = Duration.ofSeconds(20);

  @Test
  void notificationsWithoutAListenerDataSourceAreRefusedRatherThanTakingAPoolConnection() {
    assertThatThrownBy(() -> TestDatabase.backend().releaseNotifications(true).build())
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("listenerDataSource");
  }

  @Test
  void theListeningConnectionGoesBackToItsPoolNoLongerListening() throws SQLException {
    // one connection: what the pool hands out after the backend closed is the listener's session
    HikariDataSource pool = TestDatabase.server().pool(TestDatabase.NAME, 1, WAIT);
    JdbcLockBackend backend =
        TestDatabase.backend().releaseNotifications(true).listenerDataSource(pool).build();
    TestTiming.await("listening", backend::isListeningForReleases, WAIT);
    long listenerPid = listeningPid();

    backend.close();
    TestTiming.await(
        "listener connection returned",
        () -> pool.getHikariPoolMXBean().getIdleConnections() == 1,
        WAIT);

    try (Connection c = pool.getConnection();
        Statement s = c.createStatement()) {
      assertThat(single(s, "SELECT pg_backend_pid()")).isEqualTo(listenerPid);
      assertThat(single(s, "SELECT count(*) FROM pg_listening_channels()")).isZero();
    }
  }

  /** The backend pid of the one session whose last statement was a LISTEN. */
  private static long listeningPid() throws SQLException {
    try (Connection c = TestDatabase.server().connect(TestDatabase.NAME);
        Statement s = c.createStatement()) {
      return single(
          s,
          "SELECT pid FROM pg_stat_activity WHERE query LIKE 'LISTEN %' AND datname = '"
              + TestDatabase.NAME
              + "'");
    }
  }

  private static long single(Statement s, String sql) throws SQLException {
    try (ResultSet r = s.executeQuery(sql)) {
      assertThat(r.next()).as(sql).isTrue();
      long v = r.getLong(1);
      assertThat(r.next()).as(sql + " has one row").isFalse();
      return v;
    }
  }
}
