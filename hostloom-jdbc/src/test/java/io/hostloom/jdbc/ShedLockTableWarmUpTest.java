package io.hostloom.jdbc;

import com.zaxxer.hikari.HikariDataSource;
import io.hostloom.locking.spi.LockBackend;
import java.net.InetSocketAddress;
import java.time.Duration;

/**
 * {@link ShedLockTableBackend#warmUp()} (the layouts' shared core) on the shared PostgreSQL, over
 * the wide table of {@link ShedLockTableConformanceTest}: the testkit's suite.
 */
class ShedLockTableWarmUpTest extends JdbcWarmUpSuite {
  @Override
  protected InetSocketAddress serverAddress() {
    CompatTables.shedLock(TestDatabase.pool(), ShedLockTableConformanceTest.TABLE, true);
    return new InetSocketAddress("127.0.0.1", TestDatabase.server().port());
  }

  @Override
  protected String jdbcUrl(InetSocketAddress at) {
    return postgresUrl(at);
  }

  @Override
  protected LockBackend backendOn(HikariDataSource pool) {
    return ShedLockTableBackend.builder(pool)
        .table(ShedLockTableConformanceTest.TABLE)
        .commandTimeout(Duration.ofSeconds(2))
        .build();
  }
}
