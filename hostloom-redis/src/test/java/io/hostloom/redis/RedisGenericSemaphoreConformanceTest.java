package io.hostloom.redis;

import io.hostloom.locking.spi.LockBackend;
import io.hostloom.testkit.semaphore.DistributedSemaphoreConformanceSuite;

/**
 * The semaphore suite against a real redis-server on the generic slot construction (N slot keys
 * over the backend's five operations), which a backend that hides the permit view gets; {@link
 * RedisSemaphoreConformanceTest} runs the native one.
 */
class RedisGenericSemaphoreConformanceTest extends DistributedSemaphoreConformanceSuite {
  @Override
  protected LockBackend newBackend() {
    return new WithoutPermitView(
        RedisLockBackend.builder().uri(RedisServerProcess.shared().uri()).build());
  }
}
