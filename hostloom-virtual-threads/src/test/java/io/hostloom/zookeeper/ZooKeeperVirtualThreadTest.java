package io.hostloom.zookeeper;

import io.hostloom.locking.spi.LockBackend;
import io.hostloom.virtualthreads.VirtualThreadExclusionSuite;
import java.util.OptionalInt;

/**
 * The kernel over ZooKeeper (an in-process server, two sessions) on virtual threads (this package:
 * the backend's count of release waits is package-private).
 */
class ZooKeeperVirtualThreadTest extends VirtualThreadExclusionSuite {
  @Override
  protected LockBackend newBackend() {
    return ZooKeeperLockBackend.builder()
        .connectString(ZooKeeperTestServer.shared().connectString())
        .build();
  }

  @Override
  protected OptionalInt pendingWaits(LockBackend backend) {
    return OptionalInt.of(((ZooKeeperLockBackend) backend).releaseWaiters());
  }
}
