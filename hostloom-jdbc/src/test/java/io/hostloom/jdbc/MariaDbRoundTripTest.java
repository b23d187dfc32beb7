package io.hostloom.jdbc;

import io.hostloom.locking.spi.LockBackend;
import io.hostloom.testkit.capability.RoundTripBudget;
import io.hostloom.testkit.capability.RoundTripBudgetSuite;
import io.hostloom.testkit.capability.RoundTripCounter;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.sql.DataSource;

/**
 * Every MariaDB operation, in every outcome, is one statement: counted on the JDBC level (executes
 * through the pool) and by the server's own status counters ({@code Questions}, which excludes
 * pings, split by {@code Com_insert} / {@code Com_select} / {@code Com_delete}) on a server of its
 * own, so nothing else runs there. The counted backend has release polling off: each polling wait
 * costs one read per interval instead (see {@code PollingReleaseWatcher}).
 */
class MariaDbRoundTripTest extends RoundTripBudgetSuite {
  private static final String DB = "roundtrips";
  private static final List<String> KINDS = List.of("insert", "select", "delete", "update");

  private static final int POOL_SIZE = 4;

  private MariaDbServer server;
  private DataSource pool;

  private synchronized DataSource pool() {
    if (pool == null) {
      server = MariaDbServer.startNew("roundtrips", false);
      server.createDatabase(DB);
      pool = server.pool(DB, POOL_SIZE, Duration.ofSeconds(5));
      MariaDbTestDatabase.backendOn(pool).createTableIfMissing(true).build().close();
      openEveryConnection(pool);
    }
    return pool;
  }

  /**
   * Opens the pool's every connection once, so that none is opened inside a measured call: a new
   * connection's set-up statements count as server questions (seen once in CI as an "other" next to
   * a read's one select, when a call needed a second connection under load).
   */
  private static void openEveryConnection(DataSource pool) {
    List<Connection> open = new ArrayList<>();
    try {
      for (int i = 0; i < POOL_SIZE; i++) {
        open.add(pool.getConnection());
      }
    } catch (SQLException e) {
      throw new IllegalStateException("cannot fill the pool", e);
    } finally {
      for (Connection c : open) {
        try {
          c.close();
        } catch (SQLException e) {
          // back to the pool; nothing to do
        }
      }
    }
  }

  @Override
  protected RoundTripBudget budget() {
    return RoundTripBudget.everyCase(1).with(RoundTripBudget.Case.AWAIT_RELEASE, 0);
  }

  @Override
  protected CountedBackend newCountedBackend() {
    CountingDataSource counting = new CountingDataSource(pool());
    JdbcLockBackend backend = MariaDbTestDatabase.backendOn(counting).build();
    RoundTripCounter jdbc =
        new RoundTripCounter() {
          @Override
          public String name() {
            return "JDBC executes";
          }

          @Override
          public void reset() {
            counting.reset();
          }

          @Override
          public List<String> roundTrips() {
            return Collections.nCopies((int) counting.executions(), "execute");
          }
        };
    return new CountedBackend(
        backend,
        List.of(jdbc, new StatusCounter()),
        () -> {
          backend.close();
          server.close();
        });
  }

  @Override
  protected LockBackend newBackend() {
    return MariaDbTestDatabase.backendOn(pool()).build();
  }

  /** The server's global status counters, read on a connection of their own. */
  private final class StatusCounter implements RoundTripCounter {
    private Map<String, Long> before = Map.of();
    private Connection connection; // one, kept: opening a connection runs statements of its own

    @Override
    public String name() {
      return "server status (Questions, Com_*)";
    }

    @Override
    public void reset() {
      before = status();
    }

    @Override
    public List<String> roundTrips() {
      Map<String, Long> after = status();
      List<String> trips = new ArrayList<>();
      long named = 0;
      for (String kind : KINDS) {
        long n = after.get("com_" + kind) - before.get("com_" + kind);
        named += n;
        trips.addAll(Collections.nCopies((int) n, kind));
      }
      // each status read is one question itself: the reading after the reset one counts
      long questions = after.get("questions") - before.get("questions") - 1;
      trips.addAll(Collections.nCopies((int) Math.max(0, questions - named), "other"));
      return trips;
    }

    private Map<String, Long> status() {
      Map<String, Long> values = new LinkedHashMap<>();
      try {
        if (connection == null) {
          connection = server.connect(DB);
        }
      } catch (SQLException e) {
        throw new IllegalStateException("cannot connect", e);
      }
      try (Statement s = connection.createStatement();
          ResultSet r =
              s.executeQuery(
                  "SHOW GLOBAL STATUS WHERE Variable_name IN"
                      + " ('Questions', 'Com_insert', 'Com_select', 'Com_delete', 'Com_update')")) {
        while (r.next()) {
          values.put(r.getString(1).toLowerCase(java.util.Locale.ROOT), r.getLong(2));
        }
      } catch (SQLException e) {
        throw new IllegalStateException("cannot read the server's status", e);
      }
      return values;
    }
  }
}
