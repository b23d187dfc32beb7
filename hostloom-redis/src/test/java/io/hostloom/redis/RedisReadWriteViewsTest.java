package io.hostloom.redis;

import io.hostloom.locking.spi.LockBackend;
import io.hostloom.testkit.rwlock.ReadWriteViewsSuite;

/** The backend-neutral view contract ({@link ReadWriteViewsSuite}) on a real Redis server. */
class RedisReadWriteViewsTest extends ReadWriteViewsSuite {
  static RedisLockBackend open() {
    return RedisLockBackend.builder().uri(RedisServerProcess.shared().uri()).build();
  }

  @Override
  protected LockBackend newBackend() {
    return open();
  }

  @Override
  protected void awaitSignalReady(LockBackend instance) {
    ReleaseSignalTest.awaitSubscribed((RedisLockBackend) instance);
  }
}
