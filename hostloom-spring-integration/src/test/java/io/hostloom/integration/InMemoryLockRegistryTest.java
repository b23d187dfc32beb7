package io.hostloom.integration;

import io.hostloom.locking.memory.InMemoryLockBackend;
import io.hostloom.locking.spi.LockBackend;

/** The registry contract over the in-memory backend (registries in one JVM stand for processes). */
class InMemoryLockRegistryTest extends LockRegistryContract {
  private final InMemoryLockBackend backend = new InMemoryLockBackend();

  @Override
  protected LockBackend backend() {
    return backend;
  }
}
