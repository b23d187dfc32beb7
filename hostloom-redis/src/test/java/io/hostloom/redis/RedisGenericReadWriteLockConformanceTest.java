package io.hostloom.redis;

import io.hostloom.locking.spi.LockBackend;
import io.hostloom.testkit.rwlock.DistributedReadWriteLockConformanceSuite;

/**
 * The reader-writer suite against a real redis-server on the generic construction (a write key,
 * reader slots and a token key over the backend's five operations), which a backend that hides the
 * native views gets; {@link RedisReadWriteLockConformanceTest} runs the native one.
 */
class RedisGenericReadWriteLockConformanceTest extends DistributedReadWriteLockConformanceSuite {
  @Override
  protected LockBackend newBackend() {
    return new WithoutPermitView(
        RedisLockBackend.builder().uri(RedisServerProcess.shared().uri()).build());
  }
}
