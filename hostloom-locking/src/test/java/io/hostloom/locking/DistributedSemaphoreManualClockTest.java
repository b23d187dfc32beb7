package io.hostloom.locking;

import static io.hostloom.locking.KernelFixture.await;
import static io.hostloom.locking.KernelFixture.failure;
import static io.hostloom.locking.KernelFixture.onThread;
import static io.hostloom.locking.KernelFixture.value;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.hostloom.locking.memory.InMemoryLockBackend;
import io.hostloom.locking.semaphore.DistributedSemaphore;
import io.hostloom.locking.semaphore.DistributedSemaphores;
import io.hostloom.locking.semaphore.Permit;
import io.hostloom.locking.semaphore.PermitCountMismatchException;
import io.hostloom.locking.semaphore.Permits;
import io.hostloom.locking.testing.ManualLockClock;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The semaphore's timing on the manual clock over the in-memory backend (whose expiry follows that
 * clock): retry steps, {@code maxWait}, wake on release, a dead holder's permit coming back at its
 * lease end and not before, loss, interruption and closing. No sleeps: a waiter runs on its own
 * thread and the test moves the clock once the waiter's step timer is armed. Here, not in the
 * {@code semaphore} package, to share the kernel tests' {@link KernelFixture} helpers.
 */
class DistributedSemaphoreManualClockTest {
  private static final Duration STEP = Duration.ofSeconds(7); // a delay no lease timer uses
  private static final Duration LEASE = Duration.ofSeconds(10);

  private final ManualLockClock clock = new ManualLockClock();
  private final InMemoryLockBackend memory = new InMemoryLockBackend(clock);
  private DistributedSemaphores semaphores = semaphores(true);

  private DistributedSemaphores semaphores(boolean wakeOnRelease) {
    return DistributedSemaphores.builder(
            LockingOptions.builder()
                .namespace("sem")
                .defaultLease(LEASE)
                .retry(LockRetryPolicy.interval(5, STEP))
                .wakeOnRelease(wakeOnRelease)
                .build(),
            memory)
        .clock(clock)
        .build();
  }

  @AfterEach
  void close() {
    semaphores.close();
  }

  private static LockOptions waitUpTo(Duration maxWait) {
    return LockOptions.builder().maxWait(maxWait).build();
  }

  @Test
  void grantsAtMostPermitsAndAReleasedPermitIsFreeAgain() {
    DistributedSemaphore sem = semaphores.semaphore("pool", 2);
    Permits a = sem.tryAcquire().orElseThrow();
    Permits b = sem.tryAcquire().orElseThrow();
    assertThat(sem.tryAcquire()).isEmpty();
    assertThat(semaphores.permitsHeld()).isEqualTo(2);
    assertThat(a.permits().get(0).slot()).isNotEqualTo(b.permits().get(0).slot());
    assertThat(a.isCoordinated()).isTrue();
    a.close();
    try (Permits c = sem.tryAcquire().orElseThrow()) {
      Permit p = c.permits().get(0);
      assertThat(p.slot()).isEqualTo(a.permits().get(0).slot());
      assertThat(p.fencingToken()).isGreaterThan(a.permits().get(0).fencingToken());
    }
    b.close();
    assertThat(memory.liveCount()).isZero();
    assertThat(semaphores.permitsHeld()).isZero();
    b.close(); // idempotent: counted down once
    assertThat(semaphores.permitsHeld()).isZero();
  }

  @Test
  void manyPermitsAreAllOrNothingAndAPartialRoundIsGivenBack() {
    DistributedSemaphore sem = semaphores.semaphore("pool", 3);
    try (Permits two = sem.acquire(2, LockOptions.SKIP_IF_BUSY)) {
      assertThat(two.permits()).hasSize(2);
      assertThat(sem.tryAcquire(2, LockOptions.SKIP_IF_BUSY)).isEmpty();
      assertThat(memory.liveCount()).as("the partial round was given back").isEqualTo(2);
      try (Permits last = sem.tryAcquire().orElseThrow()) {
        assertThat(last.permits()).hasSize(1);
      }
    }
    assertThatThrownBy(() -> sem.tryAcquire(4, LockOptions.SKIP_IF_BUSY))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("between 1 and 3");
    assertThatThrownBy(() -> sem.tryAcquire(0, LockOptions.SKIP_IF_BUSY))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void aPartialRoundIgnoresTheMinimumHold() {
    DistributedSemaphore sem = semaphores.semaphore("pool", 2);
    try (Permits one = sem.tryAcquire().orElseThrow()) {
      LockOptions hold = LockOptions.builder().maxWait(Duration.ZERO).minimumHold(LEASE).build();
      assertThat(sem.tryAcquire(2, hold)).isEmpty();
      assertThat(memory.liveCount()).isEqualTo(1);
      assertThat(one.isHeld()).isTrue();
    }
  }

  @Test
  void anotherPermitCountForTheSameNameIsAClearErrorAndHoldsNothing() {
    try (Permits one = semaphores.semaphore("pool", 1).tryAcquire().orElseThrow()) {
      DistributedSemaphore two = semaphores.semaphore("pool", 2);
      assertThatThrownBy(() -> two.tryAcquire(2, LockOptions.SKIP_IF_BUSY))
          .isInstanceOfSatisfying(
              PermitCountMismatchException.class,
              e -> {
                assertThat(e.permits()).isEqualTo(2);
                assertThat(e.otherPermits()).isEqualTo(1);
                assertThat(e.name()).isEqualTo("pool");
              });
      assertThat(memory.liveCount()).isEqualTo(1);
      assertThat(one.isHeld()).isTrue();
    }
  }

  @Test
  void aWaiterRetriesOnTheClockAndGivesUpAtMaxWait() {
    semaphores.close();
    semaphores = semaphores(false);
    DistributedSemaphore sem = semaphores.semaphore("pool", 1);
    try (Permits held = sem.tryAcquire().orElseThrow()) {
      CompletableFuture<Permits> waiter =
          onThread(() -> sem.acquire(1, waitUpTo(STEP.plusSeconds(6))));
      awaitStepTimers(1);
      clock.advance(STEP); // second round: still busy; the next step would reach maxWait
      Throwable e = failure(waiter);
      assertThat(e).isInstanceOf(LockNotAcquiredException.class);
      assertThat(((LockNotAcquiredException) e).attempts()).isEqualTo(2);
      assertThat(held.isHeld()).isTrue();
    }
  }

  @Test
  void aReleaseWakesTheWaiterBeforeItsStepEnds() {
    DistributedSemaphore sem = semaphores.semaphore("pool", 2);
    Permits a = sem.tryAcquire().orElseThrow();
    Permits b = sem.tryAcquire().orElseThrow();
    CompletableFuture<Permits> waiter =
        onThread(() -> sem.acquire(1, waitUpTo(Duration.ofMinutes(1))));
    awaitStepTimers(1 + 1); // the step and the semaphore key's one release wait (native view)
    b.close();
    try (Permits got = value(waiter)) {
      assertThat(got.permits().get(0).slot()).isEqualTo(b.permits().get(0).slot());
      assertThat(clock.elapsed()).as("woken, not polled").isZero();
    }
    a.close();
    await(() -> memory.waiterCount() == 0);
  }

  @Test
  void aDeadHoldersPermitComesBackAtItsLeaseEndAndNotBefore() {
    DistributedSemaphore sem = semaphores.semaphore("pool", 1);
    Permits dead = sem.tryAcquire().orElseThrow(); // never closed, never extended
    CompletableFuture<Permits> waiter =
        onThread(() -> sem.acquire(1, waitUpTo(Duration.ofMinutes(1))));
    awaitStepTimers(2);
    clock.advance(STEP); // 7 s: the lease (10 s) is live, the second round is refused
    awaitStepTimers(2);
    assertThat(waiter).isNotDone();
    clock.advance(STEP); // 14 s: the lease has ended on the backend's clock
    try (Permits got = value(waiter)) {
      assertThat(got.permits().get(0).fencingToken())
          .isGreaterThan(dead.permits().get(0).fencingToken());
    }
    assertThat(dead.isHeld()).isFalse();
    assertThat(value(dead.lost())).isEqualTo(LossReason.EXPIRED);
    assertThat(semaphores.permitsHeld()).as("the lost one no longer counts").isZero();
    dead.close();
    assertThat(semaphores.permitsHeld()).isZero();
  }

  @Test
  void autoExtensionKeepsAPermitPastItsLease() {
    DistributedSemaphore sem = semaphores.semaphore("pool", 1);
    try (Permits kept = sem.acquire(1, LockOptions.builder().autoExtend(true).build())) {
      clock.advance(LEASE.multipliedBy(3));
      assertThat(kept.isHeld()).isTrue();
      assertThat(sem.tryAcquire()).isEmpty();
    }
    assertThat(sem.tryAcquire()).isPresent();
  }

  @Test
  void onLostCancelInterruptsTheActionAndTheInterruptDoesNotLeak() {
    DistributedSemaphore sem = semaphores.semaphore("pool", 1);
    AtomicReference<Boolean> interrupted = new AtomicReference<>();
    CompletableFuture<Boolean> run =
        onThread(
            () -> {
              sem.runWithPermits(
                  1,
                  LockOptions.builder().onLost(OnLost.CANCEL).build(),
                  p -> {
                    try {
                      new CompletableFuture<Void>().get(10, TimeUnit.SECONDS);
                    } catch (InterruptedException e) {
                      interrupted.set(true);
                    }
                  });
              return Thread.currentThread().isInterrupted();
            });
    await(() -> memory.liveCount() == 1);
    clock.advance(LEASE);
    assertThat(value(run)).as("interrupt flag after the action").isFalse();
    assertThat(interrupted.get()).isTrue();
  }

  @Test
  void anInterruptedWaitThrowsHoldsNothingAndKeepsTheFlag() {
    DistributedSemaphore sem = semaphores.semaphore("pool", 1);
    try (Permits held = sem.tryAcquire().orElseThrow()) {
      AtomicReference<Thread> caller = new AtomicReference<>();
      CompletableFuture<Boolean> waiter =
          onThread(
              () -> {
                caller.set(Thread.currentThread());
                try {
                  sem.acquire(1, waitUpTo(Duration.ofMinutes(1)));
                  return false;
                } catch (LockInterruptedException e) {
                  return Thread.currentThread().isInterrupted();
                }
              });
      awaitStepTimers(2);
      caller.get().interrupt();
      assertThat(value(waiter)).isTrue();
      assertThat(memory.liveCount()).isEqualTo(1);
      assertThat(held.isHeld()).isTrue();
      await(() -> memory.waiterCount() == 0);
    }
  }

  @Test
  void closingTheFactoryEndsAWaitAndLaterCalls() {
    DistributedSemaphore sem = semaphores.semaphore("pool", 1);
    try (Permits held = sem.tryAcquire().orElseThrow()) {
      CompletableFuture<Permits> waiter =
          onThread(() -> sem.acquire(1, waitUpTo(Duration.ofMinutes(1))));
      awaitStepTimers(2);
      semaphores.close();
      assertThat(failure(waiter)).isInstanceOf(IllegalStateException.class);
      assertThatThrownBy(sem::tryAcquire).isInstanceOf(IllegalStateException.class);
      assertThat(held.isHeld()).as("granted permits keep working").isTrue();
    }
  }

  @Test
  void singleInstanceModeGrantsPlaceholders() {
    try (DistributedSemaphores off =
        DistributedSemaphores.create(
            LockingOptions.builder().namespace("sem").enabled(false).build(), null)) {
      DistributedSemaphore sem = off.semaphore("pool", 1);
      try (Permits a = sem.tryAcquire().orElseThrow();
          Permits b = sem.tryAcquire().orElseThrow()) {
        assertThat(a.isCoordinated()).isFalse();
        assertThat(b.isHeld()).isTrue();
        assertThat(off.permitsHeld()).isZero();
      }
    }
  }

  @Test
  void badNamesAndCountsAreRejectedBeforeAnyBackendCall() {
    assertThatThrownBy(() -> semaphores.semaphore("two words", 1))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> semaphores.semaphore("pool", 0))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> semaphores.semaphore("x".repeat(511), 10))
        .isInstanceOf(IllegalArgumentException.class);
    assertThat(semaphores.semaphore("x".repeat(510), 10).name()).hasSize(510);
    assertThat(memory.liveCount()).isZero();
  }

  /** Waits until {@code n} timers of {@link #STEP} are armed: the waiter is in its step. */
  private void awaitStepTimers(int n) {
    await(() -> clock.pendingDelays().stream().filter(STEP::equals).count() == n);
  }
}
