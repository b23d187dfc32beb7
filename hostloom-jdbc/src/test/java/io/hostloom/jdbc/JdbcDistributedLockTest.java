package io.hostloom.jdbc;

import io.hostloom.locking.spi.LockBackend;
import io.hostloom.testkit.kernel.RealBackendExclusionSuite;

/**
 * The lock kernel over {@link JdbcLockBackend} on a real PostgreSQL, with real threads: two lock
 * instances (two backends) exclude each other and their fencing tokens grow in grant order.
 */
class JdbcDistributedLockTest extends RealBackendExclusionSuite {
  @Override
  protected LockBackend newBackend() {
    return TestDatabase.backend().build();
  }
}
