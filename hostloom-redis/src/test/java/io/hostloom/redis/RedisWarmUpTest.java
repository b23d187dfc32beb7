package io.hostloom.redis;

import io.hostloom.locking.spi.LockBackend;
import io.hostloom.testkit.capability.WarmUpSuite;
import java.net.InetSocketAddress;
import java.time.Duration;

/**
 * {@link RedisLockBackend#warmUp()} against the shared {@code redis-server}: the testkit's {@link
 * WarmUpSuite}. What it loads (scripts, the release subscription) is {@code LeanSettingsTest}'s.
 */
class RedisWarmUpTest extends WarmUpSuite {
  @Override
  protected InetSocketAddress serverAddress() {
    return new InetSocketAddress("127.0.0.1", RedisServerProcess.shared().port());
  }

  @Override
  protected LockBackend newBackend(InetSocketAddress at) {
    return RedisLockBackend.builder()
        .uri("redis://" + at.getHostString() + ":" + at.getPort())
        .commandTimeout(Duration.ofSeconds(2))
        .build();
  }
}
