package io.hostloom.leadership;

import static org.assertj.core.api.Assertions.assertThat;

import io.hostloom.locking.DistributedLock;
import io.hostloom.locking.LockHandle;
import io.hostloom.locking.LockOptions;
import io.hostloom.locking.LockingOptions;
import io.hostloom.locking.memory.InMemoryLockBackend;
import io.hostloom.locking.spi.AcquireOutcome;
import io.hostloom.locking.testing.ForwardingLockBackend;
import io.hostloom.locking.testing.ManualLockClock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/** A follower's attempts are one retry interval plus at most the jitter apart. */
class JitterTest {

  @Test
  void everyGapIsBetweenTheRetryIntervalAndTheRetryIntervalPlusTheJitterAndTheGapsVary() {
    ManualLockClock clock = new ManualLockClock();
    InMemoryLockBackend memory = new InMemoryLockBackend(clock);
    List<Duration> attempts = new ArrayList<>();
    ForwardingLockBackend timed =
        new ForwardingLockBackend(memory) {
          @Override
          public CompletableFuture<AcquireOutcome> acquire(
              String key, String owner, String data, Duration lease) {
            attempts.add(clock.elapsed());
            return super.acquire(key, owner, data, lease);
          }
        };
    LockingOptions lockOptions = LockingOptions.of("app");
    try (DistributedLock holderLock =
            DistributedLock.builder(lockOptions, memory).clock(clock).build();
        DistributedLock lock = DistributedLock.builder(lockOptions, timed).clock(clock).build();
        LockHandle held =
            holderLock.acquire(
                "leader:r", LockOptions.builder().lease(Duration.ofMinutes(5)).build());
        LeaderElector follower = LeaderElector.builder(lock, "r").clock(clock).build()) {
      follower.start();
      clock.advance(Duration.ofMinutes(4));
      assertThat(held.isHeld()).isTrue();
      assertThat(follower.isLeader()).isFalse();
      assertThat(attempts).hasSizeGreaterThan(80);
      List<Duration> gaps = new ArrayList<>();
      for (int k = 1; k < attempts.size(); k++) {
        gaps.add(attempts.get(k).minus(attempts.get(k - 1)));
      }
      assertThat(gaps)
          .allSatisfy(g -> assertThat(g).isBetween(Duration.ofSeconds(2), Duration.ofSeconds(3)));
      Duration min = gaps.stream().min(Duration::compareTo).orElseThrow();
      Duration max = gaps.stream().max(Duration::compareTo).orElseThrow();
      assertThat(max.minus(min)).isGreaterThan(Duration.ofMillis(500)); // it is random
    }
  }

  @Test
  void theJitterSourceScalesTheJitterAndIsClampedToOne() {
    ManualLockClock clock = new ManualLockClock();
    InMemoryLockBackend memory = new InMemoryLockBackend(clock);
    LockingOptions lockOptions = LockingOptions.of("app");
    try (DistributedLock holderLock =
            DistributedLock.builder(lockOptions, memory).clock(clock).build();
        DistributedLock lock = DistributedLock.builder(lockOptions, memory).clock(clock).build();
        LockHandle held = holderLock.acquire("leader:r");
        LeaderElector follower =
            LeaderElector.builder(lock, "r").clock(clock).jitterSource(() -> 7.0).build()) {
      follower.start();
      clock.runDueTasks();
      assertThat(held.isHeld()).isTrue();
      assertThat(clock.pendingDelays()).contains(Duration.ofSeconds(3));
    }
  }
}
