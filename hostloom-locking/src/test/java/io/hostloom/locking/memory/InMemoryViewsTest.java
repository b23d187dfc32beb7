package io.hostloom.locking.memory;

import static org.assertj.core.api.Assertions.assertThat;

import io.hostloom.locking.spi.LockBackend;
import io.hostloom.locking.spi.ReadWriteLeases;
import io.hostloom.locking.testing.ManualLockClock;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * What the backend-neutral view suites do not see: a view key whose entries are all gone is
 * dropped, and its next tokens still exceed every earlier one (the backend's counter is the floor);
 * view records never meet lock records of the same key. The contract itself is the testkit's view
 * suites, run on this backend there.
 */
class InMemoryViewsTest {
  private static final Duration LEASE = Duration.ofSeconds(10);
  private final ManualLockClock clock = new ManualLockClock();
  private final InMemoryLockBackend backend = new InMemoryLockBackend(clock);

  @Test
  void anEmptiedKeyIsDroppedAndItsTokensKeepIncreasing() {
    LockBackend permits = backend.permitView(2).orElseThrow();
    long first = permits.acquire("k", "a", "", LEASE).join().fencingToken();
    assertThat(permits.release("k", "a").join().released()).isTrue();
    assertThat(backend.liveCount()).isZero();
    long second = permits.acquire("k", "b", "", LEASE).join().fencingToken();
    assertThat(second).isGreaterThan(first);
    assertThat(Math.floorMod(second, 2L)).as("the lowest free slot").isZero();
    clock.advance(LEASE.plusMillis(1));
    backend.purgeExpired();
    long third = permits.acquire("k", "c", "", LEASE).join().fencingToken();
    assertThat(third).isGreaterThan(second);
  }

  @Test
  void viewRecordsNeverMeetLockRecordsOfTheSameKey() {
    ReadWriteLeases.Views rw = backend.readWriteViews(4).orElseThrow();
    long write = rw.write().acquire("k", "w", "", LEASE).join().fencingToken();
    assertThat(backend.acquire("k", "lock", "", LEASE).join().granted()).isTrue();
    assertThat(backend.permitView(1).orElseThrow().acquire("k", "p", "", LEASE).join().granted())
        .isTrue();
    long lock = backend.read("k").join().orElseThrow().fencingToken();
    assertThat(lock).as("one counter for every kind of grant").isGreaterThan(write);
    assertThat(rw.read().acquire("k", "r", "", LEASE).join().granted())
        .as("the writer still holds")
        .isFalse();
  }
}
