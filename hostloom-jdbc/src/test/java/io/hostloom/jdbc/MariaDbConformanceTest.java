package io.hostloom.jdbc;

import io.hostloom.locking.spi.LockBackend;
import io.hostloom.testkit.LockBackendConformanceSuite;

/**
 * The backend conformance suite against a real MariaDB server: every "instance" is a separate
 * {@link JdbcLockBackend} (own executor) over the shared pool and table.
 */
class MariaDbConformanceTest extends LockBackendConformanceSuite {
  @Override
  protected LockBackend newBackend() {
    return MariaDbTestDatabase.backend().build();
  }
}
