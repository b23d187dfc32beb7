package io.hostloom.etcd;

import io.hostloom.locking.spi.LockBackend;
import io.hostloom.testkit.TestTiming;
import io.hostloom.testkit.rwlock.ReadWriteViewsSuite;
import java.time.Duration;

/**
 * The backend-neutral reader-writer views contract ({@link ReadWriteViewsSuite}) on a real etcd,
 * two clients. Leases are whole seconds on etcd: the short lease is 1 s.
 */
class EtcdReadWriteViewsTest extends ReadWriteViewsSuite {
  static EtcdLockBackend open() {
    return EtcdLockBackend.builder().endpoints(EtcdServerProcess.shared().endpoint()).build();
  }

  static void awaitWatchConfirmed(LockBackend instance) {
    TestTiming.await(
        "the release watch is confirmed",
        ((EtcdLockBackend) instance)::releaseSignalUp,
        Duration.ofSeconds(10));
  }

  @Override
  protected LockBackend newBackend() {
    return open();
  }

  @Override
  protected Duration shortLease() {
    return Duration.ofSeconds(1);
  }

  @Override
  protected void awaitSignalReady(LockBackend instance) {
    awaitWatchConfirmed(instance);
  }
}
