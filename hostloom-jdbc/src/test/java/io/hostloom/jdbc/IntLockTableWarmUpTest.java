package io.hostloom.jdbc;

import com.zaxxer.hikari.HikariDataSource;
import io.hostloom.locking.spi.LockBackend;
import java.net.InetSocketAddress;
import java.time.Duration;

/**
 * {@link IntLockTableBackend#warmUp()} (the layouts' shared core) on the shared PostgreSQL, over
 * the wide table of {@link IntLockTableConformanceTest}: the testkit's suite.
 */
class IntLockTableWarmUpTest extends JdbcWarmUpSuite {
  @Override
  protected InetSocketAddress serverAddress() {
    CompatTables.intLock(TestDatabase.pool(), IntLockTableConformanceTest.PREFIX, true);
    return new InetSocketAddress("127.0.0.1", TestDatabase.server().port());
  }

  @Override
  protected String jdbcUrl(InetSocketAddress at) {
    return postgresUrl(at);
  }

  @Override
  protected LockBackend backendOn(HikariDataSource pool) {
    return IntLockTableBackend.builder(pool)
        .prefix(IntLockTableConformanceTest.PREFIX)
        .commandTimeout(Duration.ofSeconds(2))
        .build();
  }
}
