package io.hostloom.testkit.wopi;

import io.hostloom.locking.memory.InMemoryLockBackend;
import io.hostloom.locking.spi.LockBackend;
import io.hostloom.locking.testing.ManualLockClock;

/** The WOPI conformance suite over the in-memory backend on a manual clock. */
class InMemoryWopiLockConformanceTest extends WopiLockManualClockConformanceSuite {
  private final ManualLockClock clock = new ManualLockClock();
  private final InMemoryLockBackend backend = new InMemoryLockBackend(clock);

  @Override
  protected ManualLockClock manualClock() {
    return clock;
  }

  /** One in-memory backend per test: every "instance" shares its state. */
  @Override
  protected LockBackend newBackend() {
    return backend;
  }
}
