package io.hostloom.etcd;

import io.hostloom.locking.spi.LockBackend;
import io.hostloom.testkit.capability.HealthProbeSuite;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;

/** The health-probe suite over etcd: a quorum read of one key, bounded by a 1 s health timeout. */
class EtcdHealthProbeTest extends HealthProbeSuite {
  @Override
  protected InetSocketAddress serverAddress() {
    return new InetSocketAddress(
        InetAddress.getLoopbackAddress(), EtcdServerProcess.shared().clientPort());
  }

  @Override
  protected LockBackend newBackend(InetSocketAddress at) {
    return EtcdLockBackend.builder()
        .endpoints("http://127.0.0.1:" + at.getPort())
        .healthTimeout(Duration.ofSeconds(1))
        .commandTimeout(Duration.ofSeconds(2))
        .build();
  }
}
