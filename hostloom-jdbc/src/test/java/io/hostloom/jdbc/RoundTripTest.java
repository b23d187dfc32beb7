package io.hostloom.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariDataSource;
import io.hostloom.locking.spi.LockBackend;
import io.hostloom.testkit.TestTiming;
import io.hostloom.testkit.capability.RoundTripBudget;
import io.hostloom.testkit.capability.RoundTripBudget.Case;
import io.hostloom.testkit.capability.RoundTripBudgetSuite;
import io.hostloom.testkit.capability.RoundTripCounter;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.UUID;
import java.util.function.LongSupplier;
import org.junit.jupiter.api.Test;

/**
 * Every operation, in every outcome, is exactly one statement (the testkit's {@link
 * RoundTripBudgetSuite}): counted on the JDBC level (one borrowed connection, one execute) and on
 * the server by {@code pg_stat_statements} (one statement executed in the database), so no
 * driver-internal query hides behind the execute. The counted backend sends release notifications
 * (the release statement carries the {@code pg_notify}); one without notifications and {@code
 * purgeExpired} are counted too.
 */
class RoundTripTest extends RoundTripBudgetSuite {
  private static final String DB = "roundtrips";
  private static final Duration LONG = Duration.ofSeconds(60);
  private static final Duration WAIT = Duration.ofSeconds(10);

  private PostgresServer server;
  private HikariDataSource pool;
  private CountingDataSource counting;
  private JdbcLockBackend notifying;
  private JdbcLockBackend plain;
  private long dbid;

  @Override
  protected RoundTripBudget budget() {
    return RoundTripBudget.everyCase(1).with(Case.AWAIT_RELEASE, 0);
  }

  @Override
  protected CountedBackend newCountedBackend() {
    server = TestDatabase.server();
    server.createDatabase(DB);
    server.execute("postgres", "CREATE EXTENSION IF NOT EXISTS pg_stat_statements");
    pool = server.pool(DB, 4, Duration.ofSeconds(5));
    JdbcLockBackend.builder(pool).createTableIfMissing(true).build().close();
    counting = new CountingDataSource(pool);
    notifying =
        JdbcLockBackend.builder(counting)
            .releaseNotifications(true)
            .listenerDataSource(pool)
            .build();
    plain = JdbcLockBackend.builder(counting).build();
    dbid = databaseId();
    return new CountedBackend(
        notifying,
        List.of(
            jdbc("connections borrowed", counting::connections),
            jdbc("JDBC executes", counting::executions),
            new ServerStatements()),
        () -> {
          notifying.close();
          plain.close();
        });
  }

  @Override
  protected LockBackend newBackend() {
    return JdbcLockBackend.builder(pool).build();
  }

  @Override
  protected void warmUp(LockBackend b) {
    super.warmUp(b); // also opens the pool's connections outside the measured calls
    TestTiming.await("listening", notifying::isListeningForReleases, WAIT);
    TestTiming.get(plain.read("warm-up"), WAIT);
  }

  @Test
  void withoutNotificationsTooAndPurgeExpired() {
    String key = "rt-" + UUID.randomUUID();
    TestTiming.get(setup().acquire(key, "a", "d", LONG), WAIT);
    assertRoundTrips(
        "release (owner, no pg_notify)",
        1,
        () -> assertThat(TestTiming.get(plain.release(key, "a"), WAIT).released()).isTrue());
    assertRoundTrips(
        "purgeExpired", 1, () -> TestTiming.get(plain.purgeExpired(Duration.ofDays(1)), WAIT));
  }

  private RoundTripCounter jdbc(String name, LongSupplier count) {
    return new RoundTripCounter() {
      @Override
      public String name() {
        return name;
      }

      @Override
      public void reset() {
        counting.reset();
      }

      @Override
      public List<String> roundTrips() {
        return Collections.nCopies((int) count.getAsLong(), name);
      }
    };
  }

  /** {@code pg_stat_statements} of the database, the listener's own statements left out. */
  private final class ServerStatements implements RoundTripCounter {
    @Override
    public String name() {
      return "pg_stat_statements";
    }

    @Override
    public void reset() {
      try (Connection c = server.connect("postgres");
          Statement s = c.createStatement()) {
        s.execute("SELECT pg_stat_statements_reset()");
      } catch (SQLException e) {
        throw new IllegalStateException(e);
      }
    }

    @Override
    public List<String> roundTrips() {
      List<String> trips = new ArrayList<>();
      try (Connection c = server.connect("postgres");
          Statement s = c.createStatement();
          ResultSet r =
              s.executeQuery(
                  "SELECT query, calls FROM pg_stat_statements WHERE dbid = "
                      + dbid
                      // the notifying backend's listener: LISTEN once, SELECT 1 when idle
                      + " AND query <> 'SELECT 1' AND query NOT LIKE 'LISTEN %'")) {
        while (r.next()) {
          trips.addAll(Collections.nCopies((int) r.getLong(2), r.getString(1)));
        }
      } catch (SQLException e) {
        throw new IllegalStateException(e);
      }
      return trips;
    }
  }

  private long databaseId() {
    try (Connection c = server.connect("postgres");
        Statement s = c.createStatement();
        ResultSet r = s.executeQuery("SELECT oid FROM pg_database WHERE datname = '" + DB + "'")) {
      r.next();
      return r.getLong(1);
    } catch (SQLException e) {
      throw new IllegalStateException(e);
    }
  }
}
