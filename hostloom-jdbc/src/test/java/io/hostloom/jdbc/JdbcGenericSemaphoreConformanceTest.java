package io.hostloom.jdbc;

import io.hostloom.locking.spi.LockBackend;
import io.hostloom.testkit.WithoutNativeViews;
import io.hostloom.testkit.semaphore.DistributedSemaphoreConformanceSuite;

/**
 * The semaphore suite on a real PostgreSQL on the generic slot construction (N slot keys over the
 * backend's five operations), release notifications on; {@link JdbcSemaphoreConformanceTest} runs
 * the native permit view.
 */
class JdbcGenericSemaphoreConformanceTest extends DistributedSemaphoreConformanceSuite {
  @Override
  protected LockBackend newBackend() {
    return WithoutNativeViews.of(TestDatabase.notifyingBackend().build());
  }
}
