package io.hostloom.redis;

import io.hostloom.locking.spi.LockBackend;
import io.hostloom.testkit.LockBackendConformanceSuite;

/** The backend contract against a real redis-server; every instance is a new Lettuce client. */
class RedisLockBackendConformanceTest extends LockBackendConformanceSuite {
  @Override
  protected LockBackend newBackend() {
    return RedisLockBackend.builder().uri(RedisServerProcess.shared().uri()).build();
  }
}
