package io.hostloom.jdbc;

import io.hostloom.locking.spi.LockBackend;
import io.hostloom.testkit.kernel.RealBackendExclusionSuite;

/**
 * The lock kernel over the MariaDB dialect of {@link JdbcLockBackend} on a real MariaDB, with real
 * threads: two lock instances exclude each other and their fencing tokens grow in grant order.
 */
class MariaDbDistributedLockTest extends RealBackendExclusionSuite {
  @Override
  protected LockBackend newBackend() {
    return MariaDbTestDatabase.backend().build();
  }
}
