package io.hostloom.etcd;

import io.hostloom.locking.spi.LockBackend;
import io.hostloom.testkit.TestTiming;
import io.hostloom.testkit.rwlock.ReadWriteViewsSuite;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

/**
 * The backend-neutral reader-writer views contract ({@link ReadWriteViewsSuite}) on a real etcd,
 * two clients. Leases are whole seconds on etcd: the short lease is 1 s.
 */
class EtcdReadWriteViewsTest extends ReadWriteViewsSuite {
  private EtcdLockBackend backend;
  private EtcdLockBackend peer;

  @BeforeEach
  void open() {
    backend = newBackend();
  }

  @AfterEach
  void close() {
    backend.close();
    if (peer != null) {
      peer.close();
    }
  }

  private static EtcdLockBackend newBackend() {
    return EtcdLockBackend.builder().endpoints(EtcdServerProcess.shared().endpoint()).build();
  }

  @Override
  protected LockBackend backend() {
    return backend;
  }

  @Override
  protected LockBackend otherBackend() {
    if (peer == null) {
      peer = newBackend();
    }
    return peer;
  }

  @Override
  protected Duration shortLease() {
    return Duration.ofSeconds(1);
  }

  @Override
  protected void awaitSignalReady(LockBackend instance) {
    EtcdLockBackend b = (EtcdLockBackend) instance;
    TestTiming.await("the release watch is confirmed", b::releaseSignalUp, Duration.ofSeconds(10));
  }
}
