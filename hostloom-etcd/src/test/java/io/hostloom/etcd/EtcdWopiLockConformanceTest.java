package io.hostloom.etcd;

import io.hostloom.locking.spi.LockBackend;
import io.hostloom.testkit.wopi.WopiLockConformanceSuite;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;

/**
 * WOPI lock semantics over etcd (the linearizability check included), with the suite's 3 s expiry
 * (a whole number of seconds, as etcd leases are); each "host instance" is its own jetcd client.
 */
class EtcdWopiLockConformanceTest extends WopiLockConformanceSuite {
  private final List<EtcdLockBackend> opened = new ArrayList<>();

  @Override
  protected LockBackend newBackend() {
    EtcdLockBackend b =
        EtcdLockBackend.builder().endpoints(EtcdServerProcess.shared().endpoint()).build();
    opened.add(b);
    return b;
  }

  @AfterEach
  void closeBackends() {
    opened.forEach(EtcdLockBackend::close);
    opened.clear();
  }
}
