package io.hostloom.testkit;

import io.hostloom.locking.memory.InMemoryLockBackend;
import io.hostloom.locking.spi.LockBackend;
import io.hostloom.locking.testing.CountingLockBackend;

/**
 * The backend conformance suite with all its defaults, over {@link InMemoryLockBackend} on the
 * system clock: leases run out in real time, as on a real server, so this run exercises the suite's
 * default {@code passTime} and polling expiry checks that the Redis, PostgreSQL and Azure runs rely
 * on.
 */
class InMemoryLockBackendRealTimeConformanceTest extends LockBackendConformanceSuite {
  private final InMemoryLockBackend shared = new InMemoryLockBackend();

  @Override
  protected LockBackend newBackend() {
    return new CountingLockBackend(shared);
  }
}
