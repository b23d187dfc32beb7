package io.hostloom.jdbc;

import io.hostloom.locking.spi.LockBackend;
import io.hostloom.virtualthreads.VirtualThreadExclusionSuite;

/**
 * The kernel over the JDBC backend on an embedded PostgreSQL (the JDBC module's fixture, hence this
 * package) on virtual threads, which wait for the pool's connections as well as for grants.
 */
class PostgresVirtualThreadTest extends VirtualThreadExclusionSuite {
  @Override
  protected LockBackend newBackend() {
    return TestDatabase.backend().build();
  }
}
