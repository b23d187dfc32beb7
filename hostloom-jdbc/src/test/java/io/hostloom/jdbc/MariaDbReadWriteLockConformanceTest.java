package io.hostloom.jdbc;

import io.hostloom.locking.spi.LockBackend;
import io.hostloom.testkit.rwlock.DistributedReadWriteLockConformanceSuite;

/** The reader-writer lock over the MariaDB dialect of {@link JdbcLockBackend} on a real MariaDB. */
class MariaDbReadWriteLockConformanceTest extends DistributedReadWriteLockConformanceSuite {
  @Override
  protected LockBackend newBackend() {
    return MariaDbTestDatabase.backend().build();
  }
}
