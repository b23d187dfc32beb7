package io.hostloom.redis;

import io.hostloom.locking.spi.LockBackend;
import io.hostloom.testkit.rwlock.DistributedReadWriteLockConformanceSuite;

/**
 * The reader-writer lock over {@link RedisLockBackend} on a real server, two clients: the native
 * construction ({@link RedisLockBackend#readWriteViews}); {@link
 * RedisGenericReadWriteLockConformanceTest} runs the generic one.
 */
class RedisReadWriteLockConformanceTest extends DistributedReadWriteLockConformanceSuite {
  @Override
  protected LockBackend newBackend() {
    return RedisLockBackend.builder().uri(RedisServerProcess.shared().uri()).build();
  }
}
