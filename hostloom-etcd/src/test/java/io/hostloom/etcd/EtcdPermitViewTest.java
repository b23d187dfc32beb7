package io.hostloom.etcd;

import io.hostloom.locking.spi.LockBackend;
import io.hostloom.testkit.semaphore.PermitViewSuite;
import java.time.Duration;

/**
 * The backend-neutral permit view contract ({@link PermitViewSuite}) on a real etcd. Leases are
 * whole seconds on etcd: the short lease is 1 s.
 */
class EtcdPermitViewTest extends PermitViewSuite {
  @Override
  protected LockBackend newBackend() {
    return EtcdReadWriteViewsTest.open();
  }

  @Override
  protected Duration shortLease() {
    return Duration.ofSeconds(1);
  }

  @Override
  protected void awaitSignalReady(LockBackend instance) {
    EtcdReadWriteViewsTest.awaitWatchConfirmed(instance);
  }
}
