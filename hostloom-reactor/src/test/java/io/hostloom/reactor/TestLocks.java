package io.hostloom.reactor;

import io.hostloom.locking.DistributedLock;
import io.hostloom.locking.LockingOptions;
import io.hostloom.locking.memory.InMemoryLockBackend;
import io.hostloom.locking.spi.LockBackend;
import io.hostloom.locking.time.LockClock;

/** Kernel locks for the tests: default options, the given clock, no log output. */
final class TestLocks {
  private TestLocks() {}

  static DistributedLock over(LockBackend backend, LockClock clock) {
    return DistributedLock.builder(LockingOptions.of("reactor"), backend)
        .clock(clock)
        .logger(org.slf4j.helpers.NOPLogger.NOP_LOGGER)
        .build();
  }

  static DistributedLock inMemory(LockClock clock) {
    return over(new InMemoryLockBackend(clock), clock);
  }
}
