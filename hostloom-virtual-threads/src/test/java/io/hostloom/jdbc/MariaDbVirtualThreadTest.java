package io.hostloom.jdbc;

import io.hostloom.locking.spi.LockBackend;
import io.hostloom.virtualthreads.VirtualThreadExclusionSuite;

/** The kernel over the MariaDB dialect of the JDBC backend (a real mariadbd) on virtual threads. */
class MariaDbVirtualThreadTest extends VirtualThreadExclusionSuite {
  @Override
  protected LockBackend newBackend() {
    return MariaDbTestDatabase.backend().build();
  }
}
