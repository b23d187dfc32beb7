package io.hostloom.testkit;

import io.hostloom.locking.memory.InMemoryRecordStore;
import io.hostloom.locking.spi.LockBackend;
import io.hostloom.locking.spi.support.VersionedRecordLockBackend;
import java.time.Duration;

/**
 * The backend conformance suite over the generic {@link VersionedRecordLockBackend} on the
 * in-memory versioned store and a {@link ManualLockClock}: the strategy's loop, rules and fencing
 * hold the whole SPI contract. Each "instance" is its own generic backend over the one shared
 * store.
 */
class VersionedRecordLockBackendConformanceTest extends LockBackendConformanceSuite {
  private final ManualLockClock clock = new ManualLockClock();
  private final InMemoryRecordStore shared = new InMemoryRecordStore(clock);

  @Override
  protected LockBackend newBackend() {
    return new CountingLockBackend(
        VersionedRecordLockBackend.builder(shared).name("versioned-in-memory").build());
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
