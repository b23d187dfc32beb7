package io.hostloom.zookeeper;

import io.hostloom.locking.spi.LockBackend;
import io.hostloom.testkit.WithoutNativeViews;
import io.hostloom.testkit.semaphore.DistributedSemaphoreConformanceSuite;

/**
 * The semaphore suite on the generic construction (N slot keys over the five operations), which a
 * decorator that hides the native permit view gets; {@link ZooKeeperSemaphoreConformanceTest} runs
 * the native one.
 */
class ZooKeeperGenericSemaphoreConformanceTest extends DistributedSemaphoreConformanceSuite {
  @Override
  protected LockBackend newBackend() {
    return WithoutNativeViews.of(
        ZooKeeperLockBackend.builder()
            .connectString(ZooKeeperTestServer.shared().connectString())
            .build());
  }
}
