package io.hostloom.zookeeper;

import io.hostloom.locking.spi.LockBackend;
import io.hostloom.testkit.capability.HealthProbeSuite;
import java.net.InetSocketAddress;
import java.time.Duration;

/** The health-probe capability against a real server, through the suite's fault proxy. */
class ZooKeeperHealthProbeTest extends HealthProbeSuite {
  @Override
  protected InetSocketAddress serverAddress() {
    return new InetSocketAddress("127.0.0.1", ZooKeeperTestServer.shared().port());
  }

  @Override
  protected LockBackend newBackend(InetSocketAddress at) {
    return ZooKeeperLockBackend.builder()
        .connectString(at.getHostString() + ":" + at.getPort())
        .sessionTimeout(Duration.ofSeconds(4))
        .healthTimeout(Duration.ofSeconds(1))
        .build();
  }
}
