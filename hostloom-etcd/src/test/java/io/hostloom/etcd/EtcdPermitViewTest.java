package io.hostloom.etcd;

import io.hostloom.locking.spi.LockBackend;
import io.hostloom.testkit.TestTiming;
import io.hostloom.testkit.semaphore.PermitViewSuite;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

/**
 * The backend-neutral permit view contract ({@link PermitViewSuite}) on a real etcd. Leases are
 * whole seconds on etcd: the short lease is 1 s.
 */
class EtcdPermitViewTest extends PermitViewSuite {
  private EtcdLockBackend backend;

  @BeforeEach
  void open() {
    backend = EtcdLockBackend.builder().endpoints(EtcdServerProcess.shared().endpoint()).build();
  }

  @AfterEach
  void close() {
    backend.close();
  }

  @Override
  protected LockBackend backend() {
    return backend;
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
