package io.hostloom.testkit.wopi;

import io.hostloom.locking.memory.InMemoryRecordStore;
import io.hostloom.locking.spi.LockBackend;
import io.hostloom.locking.spi.support.VersionedRecordLockBackend;
import io.hostloom.testkit.ManualLockClock;

/** The WOPI conformance suite over the generic versioned-record backend on the in-memory store. */
class VersionedRecordWopiLockConformanceTest extends WopiLockManualClockConformanceSuite {
  private final ManualLockClock clock = new ManualLockClock();
  private final LockBackend backend =
      VersionedRecordLockBackend.builder(new InMemoryRecordStore(clock)).build();

  @Override
  protected ManualLockClock manualClock() {
    return clock;
  }

  @Override
  protected LockBackend newBackend() {
    return backend;
  }
}
