package io.hostloom.zookeeper;

import io.hostloom.locking.spi.LockBackend;
import io.hostloom.testkit.LockBackendConformanceSuite;

/** The backend contract against a real ZooKeeper; every instance is a new client session. */
class ZooKeeperLockBackendConformanceTest extends LockBackendConformanceSuite {
  @Override
  protected LockBackend newBackend() {
    return ZooKeeperLockBackend.builder()
        .connectString(ZooKeeperTestServer.shared().connectString())
        .build();
  }
}
