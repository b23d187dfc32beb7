package io.hostloom.etcd;

import io.hostloom.locking.spi.LockBackend;
import io.hostloom.testkit.LockBackendConformanceSuite;
import java.time.Duration;

/**
 * The backend contract against a real etcd; every instance is a new jetcd client. Leases are whole
 * seconds on etcd, so the short lease is 1 s (the test member's minimum TTL).
 */
class EtcdLockBackendConformanceTest extends LockBackendConformanceSuite {
  @Override
  protected LockBackend newBackend() {
    return EtcdLockBackend.builder().endpoints(EtcdServerProcess.shared().endpoint()).build();
  }

  @Override
  protected Duration shortLease() {
    return Duration.ofSeconds(1);
  }
}
