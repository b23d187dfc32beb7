package io.hostloom.zookeeper;

import io.hostloom.locking.spi.LockBackend;
import io.hostloom.testkit.wopi.WopiLockConformanceSuite;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;

/**
 * WOPI lock semantics over ZooKeeper, with the suite's short expiry and its linearizability check;
 * each "host instance" is its own client session.
 */
class ZooKeeperWopiConformanceTest extends WopiLockConformanceSuite {
  private final List<ZooKeeperLockBackend> opened = new ArrayList<>();

  @Override
  protected LockBackend newBackend() {
    ZooKeeperLockBackend b =
        ZooKeeperLockBackend.builder()
            .connectString(ZooKeeperTestServer.shared().connectString())
            .build();
    opened.add(b);
    return b;
  }

  @AfterEach
  void closeBackends() {
    opened.forEach(ZooKeeperLockBackend::close);
    opened.clear();
  }
}
