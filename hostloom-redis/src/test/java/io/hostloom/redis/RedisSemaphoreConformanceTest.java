package io.hostloom.redis;

import io.hostloom.locking.spi.LockBackend;
import io.hostloom.testkit.semaphore.DistributedSemaphoreConformanceSuite;

/**
 * The semaphore suite against a real redis-server, on the generic slot construction (no native
 * Redis steps yet); every process is a new Lettuce client with its release signal.
 */
class RedisSemaphoreConformanceTest extends DistributedSemaphoreConformanceSuite {
  @Override
  protected LockBackend newBackend() {
    return RedisLockBackend.builder().uri(RedisServerProcess.shared().uri()).build();
  }
}
