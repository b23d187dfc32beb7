package io.hostloom.jdbc;

import io.hostloom.locking.spi.LockBackend;
import io.hostloom.testkit.semaphore.DistributedSemaphoreConformanceSuite;

/**
 * The semaphore suite against a real MariaDB (the MySQL/MariaDB dialect) with the default settings:
 * release notifications off, so a waiting process sees another's release at its next poll.
 */
class MariaDbSemaphoreConformanceTest extends DistributedSemaphoreConformanceSuite {
  @Override
  protected LockBackend newBackend() {
    return MariaDbTestDatabase.backend().build();
  }

  @Override
  protected boolean releaseWakesWaiters() {
    return false; // without notifications its signal sees only the releases of its own instance
  }
}
