package io.hostloom.testkit;

import io.hostloom.locking.DistributedLock;
import io.hostloom.locking.LockingOptions;
import io.hostloom.locking.memory.InMemoryRecordStore;
import io.hostloom.locking.spi.LockBackend;
import io.hostloom.locking.spi.support.VersionedRecordLockBackend;
import io.hostloom.locking.time.LockClock;
import io.hostloom.testkit.kernel.KernelConformanceSuite;

/** The ten kernel scenarios on the generic versioned-record backend over the in-memory store. */
class VersionedRecordKernelConformanceTest extends KernelConformanceSuite {
  @Override
  protected LockBackend newSharedBackend(LockClock clock) {
    return VersionedRecordLockBackend.builder(new InMemoryRecordStore(clock)).build();
  }

  @Override
  protected DistributedLock newLock(LockBackend backend, LockClock clock) {
    return DistributedLock.builder(LockingOptions.of("conformance"), backend)
        .clock(clock)
        .logger(org.slf4j.helpers.NOPLogger.NOP_LOGGER)
        .build();
  }
}
