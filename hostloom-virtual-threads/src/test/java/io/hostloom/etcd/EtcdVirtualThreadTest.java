package io.hostloom.etcd;

import io.hostloom.locking.spi.LockBackend;
import io.hostloom.virtualthreads.VirtualThreadExclusionSuite;
import java.util.OptionalInt;

/**
 * The kernel over etcd (a real etcd) on virtual threads (this package: the backend's count of
 * release waits is package-private).
 */
class EtcdVirtualThreadTest extends VirtualThreadExclusionSuite {
  @Override
  protected LockBackend newBackend() {
    return EtcdLockBackend.builder().endpoints(EtcdServerProcess.shared().endpoint()).build();
  }

  @Override
  protected OptionalInt pendingWaits(LockBackend backend) {
    return OptionalInt.of(((EtcdLockBackend) backend).releaseWaiters());
  }
}
