package io.hostloom.etcd;

import io.hostloom.locking.spi.LockBackend;
import io.hostloom.testkit.capability.WarmUpSuite;
import java.net.InetSocketAddress;
import java.time.Duration;

/**
 * {@link EtcdLockBackend#warmUp()} against the shared {@code etcd}: the testkit's {@link
 * WarmUpSuite}.
 */
class EtcdWarmUpTest extends WarmUpSuite {
  @Override
  protected InetSocketAddress serverAddress() {
    return new InetSocketAddress("127.0.0.1", EtcdServerProcess.shared().clientPort());
  }

  @Override
  protected LockBackend newBackend(InetSocketAddress at) {
    return EtcdLockBackend.builder()
        .endpoints("http://" + at.getHostString() + ":" + at.getPort())
        .commandTimeout(Duration.ofSeconds(2))
        .build();
  }
}
