package io.hostloom.zookeeper;

import io.hostloom.locking.spi.LockBackend;
import io.hostloom.testkit.rwlock.DistributedReadWriteLockConformanceSuite;

/** The reader-writer lock over {@link ZooKeeperLockBackend} on a real server, two sessions. */
class ZooKeeperReadWriteLockConformanceTest extends DistributedReadWriteLockConformanceSuite {
  @Override
  protected LockBackend newBackend() {
    return ZooKeeperLockBackend.builder()
        .connectString(ZooKeeperTestServer.shared().connectString())
        .build();
  }
}
