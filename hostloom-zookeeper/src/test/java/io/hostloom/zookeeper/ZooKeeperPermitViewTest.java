package io.hostloom.zookeeper;

import io.hostloom.locking.spi.LockBackend;
import io.hostloom.testkit.semaphore.PermitViewSuite;

/** The backend-neutral view contract ({@link PermitViewSuite}) on a real ZooKeeper server. */
class ZooKeeperPermitViewTest extends PermitViewSuite {
  @Override
  protected LockBackend newBackend() {
    return ZooKeeperReadWriteViewsTest.open();
  }

  @Override
  protected void awaitSignalReady(LockBackend instance) {
    ZooKeeperReadWriteViewsTest.awaitWatching(instance);
  }
}
