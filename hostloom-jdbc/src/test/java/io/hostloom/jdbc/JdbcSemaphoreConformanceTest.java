package io.hostloom.jdbc;

import io.hostloom.locking.spi.LockBackend;
import io.hostloom.testkit.semaphore.DistributedSemaphoreConformanceSuite;

/**
 * The semaphore suite against a real PostgreSQL, with release notifications on (so a waiter is
 * woken by {@code pg_notify}); every process is its own backend and pool.
 */
class JdbcSemaphoreConformanceTest extends DistributedSemaphoreConformanceSuite {
  @Override
  protected LockBackend newBackend() {
    return TestDatabase.notifyingBackend().build();
  }
}
