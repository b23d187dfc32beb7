package io.hostloom.integration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.hostloom.locking.DistributedLock;
import io.hostloom.locking.LockBackendUnavailableException;
import io.hostloom.locking.LockFailureKind;
import io.hostloom.locking.LockingOptions;
import io.hostloom.locking.memory.InMemoryLockBackend;
import io.hostloom.locking.testing.CountingLockBackend;
import io.hostloom.locking.testing.CountingLockBackend.Operation;
import io.hostloom.locking.testing.FaultInjectingLockBackend;
import io.hostloom.testkit.TestTiming;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.dao.CannotAcquireLockException;

/**
 * The registry's own rules (cache, exceptions) and its answers to backend faults, over the
 * in-memory backend behind the kernel's fault injector.
 */
class HostLoomLockRegistryTest {
  private final CountingLockBackend counting = new CountingLockBackend(new InMemoryLockBackend());
  private final FaultInjectingLockBackend faults = new FaultInjectingLockBackend(counting);
  private final List<DistributedLock> locks = new ArrayList<>();

  private HostLoomLockRegistry registry(Duration lease) {
    DistributedLock lock = DistributedLock.builder(LockingOptions.of("si"), faults).build();
    locks.add(lock);
    return HostLoomLockRegistry.builder(lock).lease(lease).build();
  }

  private HostLoomLockRegistry registry() {
    return registry(Duration.ofMinutes(1));
  }

  @AfterEach
  void close() {
    faults.heal();
    locks.forEach(DistributedLock::close);
  }

  @Test
  void theCacheKeepsAtMostItsCapacityOfUnusedLocks() {
    HostLoomLockRegistry r = registry();
    r.setCacheCapacity(256);
    for (int i = 0; i < 20_000; i++) {
      r.obtain("group-" + i);
    }
    assertThat(r.cachedLocks()).isEqualTo(256);

    HostLoomLockRegistry byDefault = registry();
    for (int i = 0; i <= HostLoomLockRegistry.DEFAULT_CACHE_CAPACITY; i++) {
      byDefault.obtain("group-" + i);
    }
    assertThat(byDefault.cachedLocks()).isEqualTo(HostLoomLockRegistry.DEFAULT_CACHE_CAPACITY);
    assertThat(counting.total()).isZero(); // obtaining never calls the backend
  }

  @Test
  void theCacheEvictsTheLeastRecentlyObtainedUnusedLockFirst() {
    HostLoomLockRegistry r = registry();
    r.setCacheCapacity(4);
    HostLoomLock one = r.obtain("k1");
    r.obtain("k2");
    r.obtain("k3");
    r.setCacheCapacity(3);
    assertThat(r.obtain("k1")).isSameAs(one); // k1 is now the most recent
    r.obtain("k4"); // evicts k2, the least recent
    assertThat(r.cachedLocks()).isEqualTo(3);
    assertThat(r.obtain("k1")).isSameAs(one);
    r.setCacheCapacity(2); // trims to k4, k1 (k3 was least recent)
    assertThat(r.cachedLocks()).isEqualTo(2);
    assertThat(r.obtain("k1")).isSameAs(one);
    assertThatThrownBy(() -> r.setCacheCapacity(0)).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void lockedEntriesAreNeverEvictedAndAFullCacheRefusesNewKeys() throws Exception {
    HostLoomLockRegistry r = registry();
    r.setCacheCapacity(2);
    CountDownLatch locked = new CountDownLatch(1);
    CountDownLatch done = new CountDownLatch(1);
    HostLoomLock held = r.obtain("held");
    CompletableFuture<Void> owner =
        CompletableFuture.runAsync(
            () -> {
              held.lock();
              try {
                locked.countDown();
                done.await(30, TimeUnit.SECONDS);
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              } finally {
                held.unlock();
              }
            });
    assertThat(locked.await(10, TimeUnit.SECONDS)).isTrue();
    r.obtain("a");
    r.obtain("b"); // evicts "a", never "held"
    assertThat(r.obtain("held")).isSameAs(held);
    assertThat(held.tryLock(50, TimeUnit.MILLISECONDS)).isFalse(); // another thread has it
    done.countDown();
    owner.get(10, TimeUnit.SECONDS);
    held.lock();
    held.unlock();

    HostLoomLock x = r.obtain("x");
    HostLoomLock y = r.obtain("y");
    x.lock();
    y.lock();
    try {
      assertThatThrownBy(() -> r.obtain("z"))
          .isInstanceOf(CannotAcquireLockException.class)
          .hasMessageStartingWith("There are already 2 unique locks acquired in the application")
          .hasMessageEndingWith("Cannot obtain more at the moment.");
      assertThat(r.cachedLocks()).isEqualTo(2);
    } finally {
      y.unlock();
      x.unlock();
    }
  }

  @Test
  void anEvictedLockRefusesToLockAndAFreshOneWorks() throws Exception {
    HostLoomLockRegistry r = registry();
    r.setCacheCapacity(1);
    HostLoomLock stale = r.obtain("first");
    r.obtain("second");
    assertThatThrownBy(stale::lock)
        .isInstanceOf(CannotAcquireLockException.class)
        .cause()
        .isInstanceOf(IllegalStateException.class)
        .hasMessageStartingWith("The lock 'first' was evicted from the exhausted cache.");
    assertThatThrownBy(stale::tryLock).isInstanceOf(CannotAcquireLockException.class);
    assertThat(stale.isAcquiredInThisProcess()).isFalse();
    HostLoomLock fresh = r.obtain("first");
    assertThat(fresh).isNotSameAs(stale);
    assertThat(fresh.tryLock()).isTrue();
    fresh.unlock();
    assertThat(counting.count(Operation.ACQUIRE)).isEqualTo(1); // the stale one never asked
  }

  @Test
  void expireUnusedOlderThanRemovesOnlyUnusedLocksOfThatAge() throws Exception {
    HostLoomLockRegistry r = registry();
    HostLoomLock held = r.obtain("held");
    HostLoomLock idle = r.obtain("idle");
    held.lock();
    try {
      r.expireUnusedOlderThan(Duration.ofHours(1).toMillis());
      assertThat(r.cachedLocks()).isEqualTo(2); // both younger than an hour
      r.expireUnusedOlderThan(-1000);
      assertThat(r.cachedLocks()).isEqualTo(1);
      assertThat(r.obtain("held")).isSameAs(held);
      assertThat(r.obtain("idle")).isNotSameAs(idle);
    } finally {
      held.unlock();
    }
    r.expireUnusedOlderThan(-1000);
    assertThat(r.cachedLocks()).isZero();
  }

  @Test
  void aShortTryLockWaitsForTheAnswerOfItsAttemptAndLeavesNoOrphanGrant() throws Exception {
    HostLoomLockRegistry r = registry();
    HostLoomLock l = r.obtain("short");
    faults.holdReplies(Operation.ACQUIRE);
    CompletableFuture<Long> releasesWhileHeld =
        CompletableFuture.supplyAsync(
            () -> {
              try {
                if (!l.tryLock(1, TimeUnit.MILLISECONDS)) {
                  return -1L;
                }
              } catch (InterruptedException e) {
                throw new IllegalStateException(e);
              }
              long releases = counting.count(Operation.RELEASE);
              l.unlock();
              return releases;
            });
    await(() -> faults.heldReplyCount() == 1);
    faults.deliverReplies();
    // the answer was a grant: taken, and nothing released behind the caller's back
    assertThat(releasesWhileHeld.get(10, TimeUnit.SECONDS)).isZero();
    assertThat(counting.count(Operation.RELEASE)).isEqualTo(1); // the unlock's
  }

  @Test
  void aGrantArrivingAfterItsWholeLeaseIsAnAnswerNotAFailure() throws Exception {
    HostLoomLockRegistry r = registry(Duration.ofMillis(1));
    HostLoomLock l = r.obtain("tiny");
    faults.holdReplies(Operation.ACQUIRE); // the reply outlives the 1 ms lease
    assertThat(l.tryLock()).isFalse();
    assertThat(l.isAcquiredInThisProcess()).isFalse();
    long before = counting.count(Operation.ACQUIRE);
    assertThatThrownBy(l::lock)
        .isInstanceOf(CannotAcquireLockException.class)
        .hasMessageStartingWith("Failed to lock mutex at tiny");
    // lock() tried again before giving up: one slow reply is not a failure
    assertThat(counting.count(Operation.ACQUIRE) - before)
        .isEqualTo(HostLoomLock.LATE_GRANTS_BEFORE_FAILING);
    assertThat(l.isAcquiredInThisProcess()).isFalse();
  }

  @Test
  void aBackendFailureIsCannotAcquireLockExceptionAndHoldsNothing() {
    HostLoomLockRegistry r = registry();
    HostLoomLock l = r.obtain("down");
    faults.failAll(LockFailureKind.UNAVAILABLE, Operation.ACQUIRE);
    assertThatThrownBy(l::tryLock)
        .isInstanceOf(CannotAcquireLockException.class)
        .hasMessage("Failed to lock mutex at down")
        .hasCauseInstanceOf(LockBackendUnavailableException.class);
    assertThatThrownBy(l::lock).isInstanceOf(CannotAcquireLockException.class);
    assertThat(l.isAcquiredInThisProcess()).isFalse();
    faults.heal();
    assertThat(l.tryLock()).isTrue();
    l.unlock();
  }

  @Test
  void renewLockFailsWhenTheBackendFails() {
    HostLoomLockRegistry r = registry();
    HostLoomLock l = r.obtain("renew");
    assertThat(l.tryLock()).isTrue();
    try {
      faults.failAll(LockFailureKind.TIMEOUT, Operation.EXTEND);
      assertThatThrownBy(() -> r.renewLock("renew"))
          .isInstanceOf(IllegalStateException.class)
          .hasMessage("Could not renew mutex at renew");
      assertThat(l.isHeld()).isTrue(); // a failure is not a refusal: the lease end stays
      faults.heal();
      r.renewLock("renew");
    } finally {
      l.unlock();
    }
  }

  @Test
  void unlockOnAnInterruptedThreadWaitsUntilTheReleaseReachedTheBackend() throws Exception {
    HostLoomLockRegistry r = registry();
    HostLoomLock l = r.obtain("interrupted");
    AtomicBoolean releasedWhenReturned = new AtomicBoolean();
    Thread worker =
        new Thread(
            () -> {
              l.lock();
              Thread.currentThread().interrupt();
              l.unlock();
              releasedWhenReturned.set(
                  counting.count(Operation.RELEASE) == 1 && Thread.currentThread().isInterrupted());
            });
    faults.holdRequests(Operation.RELEASE);
    worker.start();
    await(() -> faults.heldRequestCount() == 1);
    await(
        () ->
            worker.getState() == Thread.State.WAITING
                || worker.getState() == Thread.State.TERMINATED);
    assertThat(worker.isAlive()).isTrue(); // still in unlock()
    assertThat(r.obtain("interrupted").tryLock()).isFalse(); // and still holding the local lock
    faults.releaseRequests();
    worker.join(TestTiming.scaled(Duration.ofSeconds(10)).toMillis());
    assertThat(worker.isAlive()).isFalse();
    assertThat(releasedWhenReturned).isTrue();
    assertThat(l.tryLock()).isTrue();
    l.unlock();
  }

  @Test
  void aReentrantTryLockInterruptedWhileRenewingAnswersFalseAndKeepsTheFlag() throws Exception {
    HostLoomLockRegistry r = registry();
    HostLoomLock l = r.obtain("reentrant-interrupt");
    AtomicBoolean answeredFalseInterrupted = new AtomicBoolean();
    AtomicBoolean outerHoldKept = new AtomicBoolean();
    Thread owner =
        new Thread(
            () -> {
              l.lock();
              faults.holdReplies(Operation.EXTEND);
              boolean answer = l.tryLock(); // the renewal's reply is withheld: waits
              answeredFalseInterrupted.set(!answer && Thread.interrupted());
              outerHoldKept.set(l.isAcquiredInThisProcess());
              faults.deliverReplies();
              l.unlock();
            });
    owner.start();
    await(() -> faults.heldReplyCount() == 1);
    owner.interrupt();
    owner.join(TestTiming.scaled(Duration.ofSeconds(10)).toMillis());
    assertThat(owner.isAlive()).isFalse();
    assertThat(answeredFalseInterrupted).isTrue();
    assertThat(outerHoldKept).isTrue();
    assertThat(l.tryLock()).isTrue(); // the outer unlock released it
    l.unlock();
  }

  private static void await(BooleanSupplier condition) {
    TestTiming.await(condition, Duration.ofSeconds(20));
  }
}
