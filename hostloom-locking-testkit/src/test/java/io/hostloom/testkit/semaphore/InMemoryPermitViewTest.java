package io.hostloom.testkit.semaphore;

import io.hostloom.locking.memory.InMemoryLockBackend;
import io.hostloom.locking.spi.LockBackend;

/** The view contract on the in-memory backend's native permit view (system clock). */
class InMemoryPermitViewTest extends PermitViewSuite {
  private final InMemoryLockBackend backend = new InMemoryLockBackend();

  @Override
  protected LockBackend newBackend() {
    return backend;
  }
}
