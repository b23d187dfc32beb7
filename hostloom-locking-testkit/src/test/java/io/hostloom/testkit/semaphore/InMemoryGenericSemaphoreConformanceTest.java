package io.hostloom.testkit.semaphore;

import io.hostloom.locking.memory.InMemoryLockBackend;
import io.hostloom.locking.spi.LockBackend;
import io.hostloom.testkit.WithoutNativeViews;

/**
 * The semaphore suite over the generic slot-key construction: the in-memory backend behind {@link
 * WithoutNativeViews}, as a backend without {@code PermitLeases} is used.
 */
class InMemoryGenericSemaphoreConformanceTest extends DistributedSemaphoreConformanceSuite {
  private final InMemoryLockBackend shared = new InMemoryLockBackend();

  @Override
  protected LockBackend newBackend() {
    return WithoutNativeViews.of(shared);
  }
}
