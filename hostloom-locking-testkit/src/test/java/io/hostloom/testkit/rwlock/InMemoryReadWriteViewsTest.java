package io.hostloom.testkit.rwlock;

import io.hostloom.locking.memory.InMemoryLockBackend;
import io.hostloom.locking.spi.LockBackend;

/**
 * The view contract on the in-memory backend's native reader-writer views (system clock); the
 * "other instance" is the same backend, as every caller of one JVM shares it.
 */
class InMemoryReadWriteViewsTest extends ReadWriteViewsSuite {
  private final InMemoryLockBackend backend = new InMemoryLockBackend();

  @Override
  protected LockBackend newBackend() {
    return backend;
  }
}
