package io.hostloom.etcd;

import io.hostloom.locking.spi.LockBackend;
import io.hostloom.testkit.rwlock.DistributedReadWriteLockConformanceSuite;
import java.time.Duration;

/**
 * The reader-writer lock over {@link EtcdLockBackend} on a real etcd, two clients. Leases are whole
 * seconds on etcd: the short lease is 1 s.
 */
class EtcdReadWriteLockConformanceTest extends DistributedReadWriteLockConformanceSuite {
  @Override
  protected LockBackend newBackend() {
    return EtcdLockBackend.builder().endpoints(EtcdServerProcess.shared().endpoint()).build();
  }

  @Override
  protected Duration shortLease() {
    return Duration.ofSeconds(1);
  }
}
