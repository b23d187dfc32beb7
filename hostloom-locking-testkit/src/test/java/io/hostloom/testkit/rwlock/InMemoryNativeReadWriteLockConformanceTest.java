package io.hostloom.testkit.rwlock;

import io.hostloom.locking.memory.InMemoryLockBackend;
import io.hostloom.locking.spi.LockBackend;

/**
 * The reader-writer suite over the in-memory backend's native views ({@code ReadWriteLeases});
 * {@link InMemoryReadWriteLockConformanceTest} runs it over the generic construction.
 */
class InMemoryNativeReadWriteLockConformanceTest extends DistributedReadWriteLockConformanceSuite {
  private final InMemoryLockBackend shared = new InMemoryLockBackend();

  @Override
  protected LockBackend newBackend() {
    return shared;
  }
}
