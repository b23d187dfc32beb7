package io.hostloom.redis;

import io.hostloom.locking.spi.LockBackend;
import io.hostloom.testkit.semaphore.DistributedSemaphoreConformanceSuite;

/**
 * The semaphore suite against a real redis-server on the native construction (the backend's permit
 * view: one sorted set per semaphore, one script per attempt); every process is a new Lettuce
 * client with its release signal. {@link RedisGenericSemaphoreConformanceTest} runs the generic
 * slot construction on the same server.
 */
class RedisSemaphoreConformanceTest extends DistributedSemaphoreConformanceSuite {
  @Override
  protected LockBackend newBackend() {
    return RedisLockBackend.builder().uri(RedisServerProcess.shared().uri()).build();
  }
}
