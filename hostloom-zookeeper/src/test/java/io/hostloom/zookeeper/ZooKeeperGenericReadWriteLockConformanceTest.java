package io.hostloom.zookeeper;

import io.hostloom.locking.spi.LockBackend;
import io.hostloom.testkit.WithoutNativeViews;
import io.hostloom.testkit.rwlock.DistributedReadWriteLockConformanceSuite;

/**
 * The reader-writer suite on the generic construction (a write key, reader slots and a token key
 * over the five operations), which a decorator that hides the native views gets; {@link
 * ZooKeeperReadWriteLockConformanceTest} runs the native one.
 */
class ZooKeeperGenericReadWriteLockConformanceTest
    extends DistributedReadWriteLockConformanceSuite {
  @Override
  protected LockBackend newBackend() {
    return WithoutNativeViews.of(
        ZooKeeperLockBackend.builder()
            .connectString(ZooKeeperTestServer.shared().connectString())
            .build());
  }
}
