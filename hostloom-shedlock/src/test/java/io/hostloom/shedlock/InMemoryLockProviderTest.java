package io.hostloom.shedlock;

import io.hostloom.locking.memory.InMemoryLockBackend;
import io.hostloom.locking.spi.LockBackend;

class InMemoryLockProviderTest extends LockProviderSuite {
  private static final InMemoryLockBackend BACKEND = new InMemoryLockBackend();

  @Override
  protected LockBackend backend() {
    return BACKEND;
  }
}
