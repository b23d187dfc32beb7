package io.hostloom.jdbc;

import io.hostloom.locking.spi.LockBackend;
import io.hostloom.testkit.LockBackendConformanceSuite;

/**
 * The backend conformance suite against a real PostgreSQL server: every "instance" is a separate
 * {@link JdbcLockBackend} (own executor) over the shared pool and table.
 */
class JdbcLockBackendConformanceTest extends LockBackendConformanceSuite {
  @Override
  protected LockBackend newBackend() {
    return TestDatabase.backend().build();
  }
}
