package io.hostloom.reactor;

import io.hostloom.locking.DistributedLock;
import io.hostloom.locking.spi.LockBackend;
import io.hostloom.locking.time.LockClock;
import io.hostloom.testkit.kernel.KernelConformanceSuite;

/** The ten kernel scenarios, every acquisition through the reactive forms. */
class ReactiveKernelConformanceTest extends KernelConformanceSuite {
  @Override
  protected DistributedLock newLock(LockBackend backend, LockClock clock) {
    return new ReactiveBackedLock(ReactiveLock.of(TestLocks.over(backend, clock)));
  }
}
