package io.hostloom.testkit.kernel;

import io.hostloom.locking.DistributedLock;
import io.hostloom.locking.LockingOptions;
import io.hostloom.locking.spi.LockBackend;
import io.hostloom.locking.time.LockClock;

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
