package io.hostloom.jdbc;

import com.zaxxer.hikari.HikariDataSource;
import io.hostloom.locking.spi.LockBackend;
import io.hostloom.testkit.capability.WarmUpSuite;
import java.net.InetSocketAddress;
import java.util.IdentityHashMap;
import java.util.Map;

/**
 * The testkit's {@link WarmUpSuite} for this module's backends: each instance gets a fresh pool of
 * its own at the address the suite gives (so the warm-up opens the pool's first connection), with a
 * 1 s pool timeout under the instance's 2 s command timeout; the pool is closed with it.
 */
abstract class JdbcWarmUpSuite extends WarmUpSuite {
  private final Map<LockBackend, HikariDataSource> pools = new IdentityHashMap<>();

  /** A JDBC URL of the test database at {@code at}, with the user. */
  protected abstract String jdbcUrl(InetSocketAddress at);

  /** The backend under test over {@code pool}, with a 2 s command timeout. */
  protected abstract LockBackend backendOn(HikariDataSource pool);

  @Override
  protected final LockBackend newBackend(InetSocketAddress at) {
    HikariDataSource pool = new HikariDataSource(); // started by the first getConnection
    pool.setJdbcUrl(jdbcUrl(at));
    pool.setMaximumPoolSize(2);
    pool.setMinimumIdle(0);
    pool.setConnectionTimeout(1000);
    pool.setValidationTimeout(500);
    pool.setInitializationFailTimeout(-1);
    LockBackend backend = backendOn(pool);
    synchronized (pools) {
      pools.put(backend, pool);
    }
    return backend;
  }

  @Override
  protected final void closeBackend(LockBackend instance) throws Exception {
    super.closeBackend(instance);
    HikariDataSource pool;
    synchronized (pools) {
      pool = pools.remove(instance);
    }
    if (pool != null) {
      pool.close();
    }
  }

  /** A JDBC URL of database {@value TestDatabase#NAME} on PostgreSQL at {@code at}. */
  static String postgresUrl(InetSocketAddress at) {
    return "jdbc:postgresql://"
        + at.getHostString()
        + ":"
        + at.getPort()
        + "/"
        + TestDatabase.NAME
        + "?user=postgres";
  }

  /** The pool of an instance made by {@link #newBackend}. */
  protected final HikariDataSource poolOf(LockBackend instance) {
    synchronized (pools) {
      return pools.get(instance);
    }
  }
}
