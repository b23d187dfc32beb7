package io.hostloom.kotlin

import io.hostloom.locking.DistributedLock
import io.hostloom.locking.LockingOptions
import io.hostloom.locking.memory.InMemoryLockBackend
import io.hostloom.locking.spi.LockBackend
import io.hostloom.locking.time.LockClock
import org.slf4j.helpers.NOPLogger

/** Kernel locks for the tests: default options, the given clock, no log output. */
internal object TestLocks {
  fun over(backend: LockBackend, clock: LockClock): DistributedLock =
    DistributedLock.builder(LockingOptions.of("kotlin"), backend)
      .clock(clock)
      .logger(NOPLogger.NOP_LOGGER)
      .build()

  fun inMemory(clock: LockClock): DistributedLock = over(InMemoryLockBackend(clock), clock)
}
