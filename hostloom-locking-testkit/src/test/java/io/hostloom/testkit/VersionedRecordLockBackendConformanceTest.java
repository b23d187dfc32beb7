package io.hostloom.testkit;

import io.hostloom.locking.memory.InMemoryRecordStore;
import io.hostloom.locking.spi.LockBackend;
import io.hostloom.locking.spi.support.VersionedRecordLockBackend;
import io.hostloom.locking.testing.CountingLockBackend;

/**
 * The backend conformance suite over the generic {@link VersionedRecordLockBackend} on the
 * in-memory versioned store, with the in-memory test's manual clock and settings: the strategy's
 * loop, rules and fencing keep the whole SPI contract. Each "instance" is its own generic backend
 * over the one shared store.
 */
class VersionedRecordLockBackendConformanceTest extends InMemoryLockBackendConformanceTest {
  private final InMemoryRecordStore store = new InMemoryRecordStore(clock);

  @Override
  protected LockBackend newBackend() {
    return new CountingLockBackend(
        VersionedRecordLockBackend.builder(store).name("versioned-in-memory").build());
  }
}
