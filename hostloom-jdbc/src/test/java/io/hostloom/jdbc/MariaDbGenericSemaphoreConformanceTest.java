package io.hostloom.jdbc;

import io.hostloom.locking.spi.LockBackend;
import io.hostloom.testkit.WithoutNativeViews;
import io.hostloom.testkit.semaphore.DistributedSemaphoreConformanceSuite;

/**
 * The semaphore suite on a real MariaDB on the generic slot construction, default settings (release
 * notifications off); {@link MariaDbSemaphoreConformanceTest} runs the native permit view.
 */
class MariaDbGenericSemaphoreConformanceTest extends DistributedSemaphoreConformanceSuite {
  @Override
  protected LockBackend newBackend() {
    return WithoutNativeViews.of(MariaDbTestDatabase.backend().build());
  }

  @Override
  protected boolean releaseWakesWaiters() {
    return false; // without notifications its signal sees only the releases of its own instance
  }
}
