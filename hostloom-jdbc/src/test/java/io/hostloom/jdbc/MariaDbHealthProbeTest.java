package io.hostloom.jdbc;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.hostloom.locking.spi.LockBackend;
import io.hostloom.testkit.capability.HealthProbeSuite;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.IdentityHashMap;
import java.util.Map;

/**
 * The health-probe suite on MariaDB: each instance has a pool of its own on the address the suite
 * gives (the shared server, a fault proxy in front of it, a closed port), a 2 s command timeout and
 * a 1 s pool timeout, so a gone or stalled server is reported well within the suite's bound.
 */
class MariaDbHealthProbeTest extends HealthProbeSuite {
  private final Map<LockBackend, HikariDataSource> pools = new IdentityHashMap<>();

  @Override
  protected InetSocketAddress serverAddress() {
    return new InetSocketAddress("127.0.0.1", MariaDbTestDatabase.server().port());
  }

  @Override
  protected LockBackend newBackend(InetSocketAddress at) {
    MariaDbTestDatabase.pool(); // the database and table exist
    HikariConfig config = new HikariConfig();
    config.setJdbcUrl(
        "jdbc:mariadb://"
            + at.getHostString()
            + ":"
            + at.getPort()
            + "/"
            + MariaDbTestDatabase.NAME
            + "?user=root&connectTimeout=1000&socketTimeout=4000");
    config.setMaximumPoolSize(2);
    config.setMinimumIdle(0);
    config.setConnectionTimeout(1000);
    config.setValidationTimeout(500);
    config.setInitializationFailTimeout(-1);
    HikariDataSource pool = new HikariDataSource(config);
    JdbcLockBackend backend =
        MariaDbTestDatabase.backendOn(pool).commandTimeout(Duration.ofSeconds(2)).build();
    synchronized (pools) {
      pools.put(backend, pool);
    }
    return backend;
  }

  @Override
  protected void closeBackend(LockBackend instance) throws Exception {
    super.closeBackend(instance);
    HikariDataSource pool;
    synchronized (pools) {
      pool = pools.remove(instance);
    }
    if (pool != null) {
      pool.close();
    }
  }
}
