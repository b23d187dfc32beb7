package io.hostloom.testkit.rwlock;

import io.hostloom.locking.memory.InMemoryLockBackend;
import io.hostloom.locking.spi.LockBackend;
import io.hostloom.testkit.WithoutNativeViews;

/**
 * The reader-writer suite over one in-memory backend on the system clock (two lock instances share
 * it as two processes would share a server); kernel timing on the manual clock is in the kernel's
 * {@code ReadWriteLockTest}. {@link WithoutNativeViews} hides the backend's native views, so this
 * runs the generic construction; {@link InMemoryNativeReadWriteLockConformanceTest} runs the views.
 */
class InMemoryReadWriteLockConformanceTest extends DistributedReadWriteLockConformanceSuite {
  private final InMemoryLockBackend shared = new InMemoryLockBackend();

  @Override
  protected LockBackend newBackend() {
    return WithoutNativeViews.of(shared);
  }
}
