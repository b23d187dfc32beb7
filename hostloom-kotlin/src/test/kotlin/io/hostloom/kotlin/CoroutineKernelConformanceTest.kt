package io.hostloom.kotlin

import io.hostloom.locking.DistributedLock
import io.hostloom.locking.spi.LockBackend
import io.hostloom.locking.time.LockClock
import io.hostloom.testkit.kernel.KernelConformanceSuite

/** The ten kernel scenarios, every acquisition through the suspend forms. */
internal class CoroutineKernelConformanceTest : KernelConformanceSuite() {
  override fun newLock(backend: LockBackend, clock: LockClock): DistributedLock =
    CoroutineBackedLock(TestLocks.over(backend, clock))
}
