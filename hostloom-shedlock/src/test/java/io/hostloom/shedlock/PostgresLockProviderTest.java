package io.hostloom.shedlock;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.hostloom.jdbc.JdbcLockBackend;
import io.hostloom.jdbc.PostgresTestServer;
import io.hostloom.locking.spi.LockBackend;
import org.junit.jupiter.api.AfterAll;

/** The suite against a real PostgreSQL (the JDBC module's embedded-binaries fixture). */
class PostgresLockProviderTest extends LockProviderSuite {
  private static PostgresTestServer server;
  private static HikariDataSource pool;
  private static JdbcLockBackend backend;

  @Override
  protected synchronized LockBackend backend() {
    if (backend == null) {
      server = PostgresTestServer.startNew("shedlock", false);
      server.createDatabase("shedlock");
      HikariConfig config = new HikariConfig();
      config.setJdbcUrl(server.jdbcUrl("shedlock"));
      config.setMaximumPoolSize(10);
      pool = new HikariDataSource(config);
      backend = JdbcLockBackend.builder(pool).createTableIfMissing(true).build();
    }
    return backend;
  }

  @Override
  protected int fuzzIterations() {
    return 30;
  }

  @AfterAll
  static void stop() {
    if (backend != null) {
      backend.close();
      pool.close();
      server.close();
    }
  }
}
