package io.hostloom.locking;

import io.hostloom.locking.spi.LockBackend;
import io.hostloom.locking.time.LockClock;
import io.hostloom.testkit.kernel.KernelConformanceSuite;

/** The ten kernel scenarios on the in-memory backend, with locks built by plain constructors. */
class KernelConformanceInMemoryTest extends KernelConformanceSuite {
  @Override
  protected DistributedLock newLock(LockBackend backend, LockClock clock) {
    return DistributedLock.builder(LockingOptions.of("conformance"), backend)
        .clock(clock)
        .logger(org.slf4j.helpers.NOPLogger.NOP_LOGGER)
        .build();
  }
}
