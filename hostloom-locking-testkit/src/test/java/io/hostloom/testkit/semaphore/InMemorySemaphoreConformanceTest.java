package io.hostloom.testkit.semaphore;

import io.hostloom.locking.memory.InMemoryLockBackend;
import io.hostloom.locking.spi.LockBackend;

/**
 * The semaphore suite over one {@link InMemoryLockBackend} on the system clock, shared by every
 * "process" of a test (one store, as one server): leases run out in real time, as on the real
 * servers; the manual-clock timing is {@code DistributedSemaphoreManualClockTest} in the kernel.
 * The backend offers its native permit view; {@link InMemoryGenericSemaphoreConformanceTest} runs
 * the suite over the generic slot keys.
 */
class InMemorySemaphoreConformanceTest extends DistributedSemaphoreConformanceSuite {
  private final InMemoryLockBackend shared = new InMemoryLockBackend();

  @Override
  protected LockBackend newBackend() {
    return shared;
  }
}
