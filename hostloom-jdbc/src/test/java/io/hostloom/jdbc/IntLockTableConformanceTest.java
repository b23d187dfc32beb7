package io.hostloom.jdbc;

import io.hostloom.locking.spi.LockBackend;
import io.hostloom.testkit.LockBackendConformanceSuite;

/**
 * The backend conformance suite over Spring Integration's {@code INT_LOCK} layout on a real
 * PostgreSQL. Its {@code CLIENT_ID CHAR(36)} holds a kernel owner token but not the suite's owners
 * and data, so the table here has that column as {@code TEXT}; {@code IntLockTableTest} and the
 * multi-process test in {@code hostloom-spring-integration} use the exact DDL.
 */
class IntLockTableConformanceTest extends LockBackendConformanceSuite {
  static final String PREFIX = "WIDE_";

  @Override
  protected LockBackend newBackend() {
    CompatTables.intLock(TestDatabase.pool(), PREFIX, true);
    return IntLockTableBackend.builder(TestDatabase.pool()).prefix(PREFIX).build();
  }
}
