package io.hostloom.jdbc;

import io.hostloom.locking.spi.LockBackend;
import io.hostloom.testkit.rwlock.DistributedReadWriteLockConformanceSuite;

/** The reader-writer lock over {@link JdbcLockBackend} on a real PostgreSQL, two pools. */
class JdbcReadWriteLockConformanceTest extends DistributedReadWriteLockConformanceSuite {
  @Override
  protected LockBackend newBackend() {
    return TestDatabase.backend().build();
  }
}
