package io.hostloom.testkit;

import io.hostloom.locking.memory.InMemoryLockBackend;
import io.hostloom.locking.spi.LockBackend;
import io.hostloom.locking.testing.CountingLockBackend;
import io.hostloom.locking.testing.ManualLockClock;
import java.time.Duration;

/**
 * The backend conformance suite over {@link InMemoryLockBackend} on a {@link ManualLockClock}:
 * expiry is reached by advancing the clock, never by waiting. Each "instance" is a distinct client
 * object over the one shared in-memory state, as several service instances share one server.
 */
class InMemoryLockBackendConformanceTest extends LockBackendConformanceSuite {
  final ManualLockClock clock = new ManualLockClock(); // also the subclass's
  private final InMemoryLockBackend shared = new InMemoryLockBackend(clock);

  @Override
  protected LockBackend newBackend() {
    return new CountingLockBackend(shared);
  }

  @Override
  protected void passTime(Duration duration) {
    clock.advance(duration);
  }

  @Override
  protected Duration expiryGrace() {
    return Duration.ZERO; // the manual clock expires a lease exactly at its end
  }

  @Override
  protected int contentionRoundsPerThread() {
    return 200;
  }
}
