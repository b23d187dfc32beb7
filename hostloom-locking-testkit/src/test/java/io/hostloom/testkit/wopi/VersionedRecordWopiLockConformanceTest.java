package io.hostloom.testkit.wopi;

import io.hostloom.locking.memory.InMemoryRecordStore;
import io.hostloom.locking.spi.LockBackend;
import io.hostloom.locking.spi.support.VersionedRecordLockBackend;

/** The WOPI conformance suite over the generic versioned-record backend on the in-memory store. */
class VersionedRecordWopiLockConformanceTest extends InMemoryWopiLockConformanceTest {
  private final LockBackend backend =
      VersionedRecordLockBackend.builder(new InMemoryRecordStore(manualClock())).build();

  @Override
  protected LockBackend newBackend() {
    return backend;
  }
}
