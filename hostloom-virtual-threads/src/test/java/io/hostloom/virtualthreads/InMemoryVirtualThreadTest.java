package io.hostloom.virtualthreads;

import io.hostloom.locking.memory.InMemoryLockBackend;
import io.hostloom.locking.spi.LockBackend;
import io.hostloom.locking.time.LockClock;
import java.util.OptionalInt;

/**
 * The kernel over the in-memory backend (one store both lock instances share) on virtual threads.
 */
class InMemoryVirtualThreadTest extends VirtualThreadExclusionSuite {
  private final InMemoryLockBackend shared = new InMemoryLockBackend(LockClock.system());

  @Override
  protected LockBackend newBackend() {
    return shared;
  }

  @Override
  protected OptionalInt pendingWaits(LockBackend backend) {
    return OptionalInt.of(shared.waiterCount());
  }

  @Override
  protected int threadsPerInstance() {
    return 200;
  }
}
