package io.hostloom.jdbc;

import io.hostloom.locking.spi.LockBackend;
import io.hostloom.testkit.LockBackendConformanceSuite;

/**
 * The backend conformance suite with release notifications on, so releases run the {@code
 * pg_notify} form of the statement and every instance holds a listening connection.
 */
class JdbcLockBackendNotifyingConformanceTest extends LockBackendConformanceSuite {
  @Override
  protected LockBackend newBackend() {
    return TestDatabase.notifyingBackend().build();
  }
}
