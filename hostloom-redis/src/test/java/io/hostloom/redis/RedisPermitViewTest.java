package io.hostloom.redis;

import io.hostloom.locking.spi.LockBackend;
import io.hostloom.testkit.semaphore.PermitViewSuite;

/** The backend-neutral view contract ({@link PermitViewSuite}) on a real Redis server. */
class RedisPermitViewTest extends PermitViewSuite {
  @Override
  protected LockBackend newBackend() {
    return RedisReadWriteViewsTest.open();
  }

  @Override
  protected void awaitSignalReady(LockBackend instance) {
    ReleaseSignalTest.awaitSubscribed((RedisLockBackend) instance);
  }
}
