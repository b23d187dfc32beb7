package io.hostloom.jdbc;

import io.hostloom.locking.spi.LockBackend;
import io.hostloom.testkit.LockBackendConformanceSuite;

/**
 * The backend conformance suite over ShedLock's table layout on a real PostgreSQL. ShedLock's DDL
 * fixes widths below the SPI's limits ({@code name} 64, {@code locked_by} 255 characters), so the
 * table here has the same columns with wider text; {@code ShedLockTableTest} and the multi-process
 * test in {@code hostloom-shedlock} use the exact DDL.
 */
class ShedLockTableConformanceTest extends LockBackendConformanceSuite {
  static final String TABLE = "shedlock_wide";

  @Override
  protected LockBackend newBackend() {
    CompatTables.shedLock(TestDatabase.pool(), TABLE, true);
    return ShedLockTableBackend.builder(TestDatabase.pool()).table(TABLE).build();
  }
}
