package io.hostloom.scheduling;

import static io.hostloom.scheduling.GuardFixture.ms;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.hostloom.locking.DistributedLock;
import io.hostloom.locking.LockBackendUnavailableException;
import io.hostloom.locking.LockFailureKind;
import io.hostloom.locking.LockingOptions;
import io.hostloom.locking.OnLost;
import io.hostloom.locking.memory.InMemoryLockBackend;
import io.hostloom.locking.testing.CountingLockBackend.Operation;
import io.hostloom.testkit.TestTiming;
import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Every outcome of a guarded run, on the manual clock over the in-memory backend. */
class ScheduleGuardTest {
  private static final Duration WAIT = Duration.ofSeconds(10);

  private final GuardFixture f = new GuardFixture();

  @AfterEach
  void close() throws InterruptedException {
    f.close();
  }

  private static ScheduleOptions.Builder opts(String name) {
    return ScheduleOptions.builder(name).lease(Duration.ofSeconds(10));
  }

  @Test
  void succeededRunsTheJobUnderAFencedClaimAndReleasesIt() {
    ScheduleGuard guard = f.guard(f.instanceA, opts("report").build());
    AtomicBoolean heldInside = new AtomicBoolean();

    RunResult r = guard.run(claim -> heldInside.set(f.claimHeld("report") && claim.isHeld()));

    assertThat(r.outcome()).isEqualTo(RunOutcome.SUCCEEDED);
    assertThat(r.fencingToken()).isPositive();
    assertThat(r.failure()).isEmpty();
    assertThat(heldInside).isTrue();
    assertThat(f.claimHeld("report")).isFalse();
    assertThat(f.started)
        .singleElement()
        .extracting(ScheduleClaim::fencingToken)
        .isEqualTo(r.fencingToken());
    assertThat(f.finished).containsExactly(r);
    assertThat(guard.state().runCount()).isEqualTo(1);
    assertThat(guard.state().lastResult()).contains(r);
    assertThat(guard.state().running()).isFalse();
  }

  @Test
  void failedKeepsWhatTheJobThrewAndReleases() {
    ScheduleGuard guard = f.guard(f.instanceA, opts("report").build());
    IllegalStateException boom = new IllegalStateException("boom");

    RunResult r =
        guard.run(
            claim -> {
              throw boom;
            });

    assertThat(r.outcome()).isEqualTo(RunOutcome.FAILED);
    assertThat(r.failure()).containsSame(boom);
    assertThat(f.claimHeld("report")).isFalse();
    assertThatThrownBy(r::throwIfFailed).isSameAs(boom);
  }

  @Test
  void aCheckedFailureIsRethrownWrapped() {
    ScheduleGuard guard = f.guard(f.instanceA, opts("report").build());
    RunResult r =
        guard.run(
            claim -> {
              throw new IOException("disk");
            });
    assertThatThrownBy(r::throwIfFailed)
        .isInstanceOf(ScheduleRunException.class)
        .hasMessageContaining("'report'")
        .hasMessageContaining("FAILED")
        .hasCauseInstanceOf(IOException.class);
  }

  @Test
  void skippedWhenAnotherInstanceHoldsTheClaim() throws Exception {
    ScheduleGuard a = f.guard(f.instanceA, opts("report").build());
    ScheduleGuard b = f.guard(f.instanceB, opts("report").build());
    CountDownLatch inside = new CountDownLatch(1);
    CountDownLatch proceed = new CountDownLatch(1);
    CompletableFuture<RunResult> first =
        f.runInBackground(
            a,
            claim -> {
              inside.countDown();
              proceed.await();
            });
    assertThat(inside.await(10, TimeUnit.SECONDS)).isTrue();
    AtomicInteger ran = new AtomicInteger();

    RunResult second = b.run(claim -> ran.incrementAndGet());

    assertThat(second.outcome()).isEqualTo(RunOutcome.SKIPPED);
    assertThat(second.fencingToken()).isZero();
    assertThat(ran).hasValue(0);
    assertThat(b.state().runCount()).isZero();
    proceed.countDown();
    assertThat(TestTiming.get(first, WAIT).outcome()).isEqualTo(RunOutcome.SUCCEEDED);
  }

  @Test
  void skippedWithoutABackendCallWhileThePreviousRunStillRunsHere() throws Exception {
    ScheduleGuard guard = f.guard(f.instanceA, opts("report").build());
    CountDownLatch inside = new CountDownLatch(1);
    CountDownLatch proceed = new CountDownLatch(1);
    CompletableFuture<RunResult> first =
        f.runInBackground(
            guard,
            claim -> {
              inside.countDown();
              proceed.await();
            });
    assertThat(inside.await(10, TimeUnit.SECONDS)).isTrue();
    assertThat(guard.state().running()).isTrue();
    long acquires = f.faults.calls(Operation.ACQUIRE);

    RunResult overlap = guard.run(claim -> {});

    assertThat(overlap.outcome()).isEqualTo(RunOutcome.SKIPPED);
    assertThat(f.faults.calls(Operation.ACQUIRE)).isEqualTo(acquires);
    proceed.countDown();
    assertThat(TestTiming.get(first, WAIT).outcome()).isEqualTo(RunOutcome.SUCCEEDED);
    assertThat(guard.state().runCount()).isEqualTo(1);
  }

  @Test
  void guardFailedNeverRunsTheJobWhenTheBackendFails() {
    ScheduleGuard guard = f.guard(f.instanceA, opts("report").build());
    f.faults.failNext(1, LockFailureKind.UNAVAILABLE, Operation.ACQUIRE);
    AtomicInteger ran = new AtomicInteger();

    RunResult r = guard.run(claim -> ran.incrementAndGet());

    assertThat(r.outcome()).isEqualTo(RunOutcome.GUARD_FAILED);
    assertThat(ran).hasValue(0);
    assertThat(r.failure()).get().isInstanceOf(LockBackendUnavailableException.class);
    assertThatThrownBy(r::throwIfFailed).isInstanceOf(LockBackendUnavailableException.class);
    assertThat(guard.state().runCount()).isZero();
    assertThat(f.finished).containsExactly(r);
  }

  @Test
  void timedOutInterruptsTheJobAtTheTimeoutAndClearsTheFlag() throws Exception {
    ScheduleGuard guard = f.guard(f.instanceA, opts("report").timeout(ms(1500)).build());
    CountDownLatch inside = new CountDownLatch(1);
    AtomicBoolean flagAfterRun = new AtomicBoolean(true);
    CompletableFuture<RunResult> run =
        CompletableFuture.supplyAsync(
            () -> {
              RunResult r =
                  guard.run(
                      claim -> {
                        inside.countDown();
                        new CountDownLatch(1).await(); // until interrupted
                      });
              flagAfterRun.set(Thread.currentThread().isInterrupted());
              return r;
            });
    assertThat(inside.await(10, TimeUnit.SECONDS)).isTrue();

    f.clock.advance(ms(1499));
    assertThat(run).isNotDone();
    f.clock.advance(ms(1));
    RunResult r = TestTiming.get(run, WAIT);

    assertThat(r.outcome()).isEqualTo(RunOutcome.TIMED_OUT);
    assertThat(r.duration()).isEqualTo(ms(1500));
    assertThat(r.failure()).get().isInstanceOf(InterruptedException.class);
    assertThat(flagAfterRun).isFalse();
    assertThat(f.claimHeld("report")).isFalse();
  }

  @Test
  void cancelledWhenInterruptedFromOutsideAndTheFlagIsKept() throws Exception {
    ScheduleGuard guard = f.guard(f.instanceA, opts("report").build());
    CountDownLatch inside = new CountDownLatch(1);
    AtomicBoolean flagAfterRun = new AtomicBoolean();
    Thread[] worker = new Thread[1];
    CompletableFuture<RunResult> run = new CompletableFuture<>();
    worker[0] =
        new Thread(
            () -> {
              RunResult r =
                  guard.run(
                      claim -> {
                        inside.countDown();
                        try {
                          new CountDownLatch(1).await();
                        } finally {
                          Thread.currentThread().interrupt(); // a job that restores the flag
                        }
                      });
              flagAfterRun.set(Thread.currentThread().isInterrupted());
              run.complete(r);
            });
    worker[0].start();
    assertThat(inside.await(10, TimeUnit.SECONDS)).isTrue();

    worker[0].interrupt();
    RunResult r = TestTiming.get(run, WAIT);

    assertThat(r.outcome()).isEqualTo(RunOutcome.CANCELLED);
    assertThat(flagAfterRun).isTrue();
    assertThat(f.claimHeld("report")).isFalse();
  }

  @Test
  void cancelledBeforeClaimingWhenTheThreadIsAlreadyInterrupted() {
    ScheduleGuard guard = f.guard(f.instanceA, opts("report").maxWait(ms(500)).build());
    Thread.currentThread().interrupt();
    try {
      RunResult r = guard.run(claim -> {});
      assertThat(r.outcome()).isEqualTo(RunOutcome.CANCELLED);
      assertThat(guard.state().runCount()).isZero();
    } finally {
      Thread.interrupted();
    }
  }

  @Test
  void claimLostWithObserveLetsTheJobFinishAndReportsTheLoss() throws Exception {
    ScheduleGuard guard = f.guard(f.instanceA, opts("report").lease(ms(1000)).build());
    CountDownLatch inside = new CountDownLatch(1);
    CountDownLatch proceed = new CountDownLatch(1);
    AtomicBoolean interrupted = new AtomicBoolean();
    AtomicBoolean heldAtEnd = new AtomicBoolean(true);
    CompletableFuture<RunResult> run =
        f.runInBackground(
            guard,
            claim -> {
              inside.countDown();
              try {
                proceed.await();
              } catch (InterruptedException e) {
                interrupted.set(true);
              }
              heldAtEnd.set(claim.isHeld());
            });
    assertThat(inside.await(10, TimeUnit.SECONDS)).isTrue();

    f.clock.advance(ms(1000)); // the lease runs out: nothing extends it
    proceed.countDown();
    RunResult r = TestTiming.get(run, WAIT);

    assertThat(r.outcome()).isEqualTo(RunOutcome.CLAIM_LOST);
    assertThat(interrupted).isFalse();
    assertThat(heldAtEnd).isFalse();
  }

  @Test
  void claimLostWithCancelInterruptsTheJob() throws Exception {
    ScheduleGuard guard =
        f.guard(f.instanceA, opts("report").lease(ms(1000)).onLost(OnLost.CANCEL).build());
    CountDownLatch inside = new CountDownLatch(1);
    CompletableFuture<RunResult> run =
        f.runInBackground(
            guard,
            claim -> {
              inside.countDown();
              new CountDownLatch(1).await();
            });
    assertThat(inside.await(10, TimeUnit.SECONDS)).isTrue();

    f.clock.advance(ms(1000));
    RunResult r = TestTiming.get(run, WAIT);

    assertThat(r.outcome()).isEqualTo(RunOutcome.CLAIM_LOST);
    assertThat(r.failure()).get().isInstanceOf(InterruptedException.class);
  }

  @Test
  void minimumHoldKeepsAFastRunsClaimUntilItEndsThenReleases() {
    ScheduleOptions o = opts("report").minimumHold(Duration.ofSeconds(5)).build();
    ScheduleGuard a = f.guard(f.instanceA, o);
    ScheduleGuard b = f.guard(f.instanceB, o);

    RunResult first = a.run(claim -> f.clock.advance(ms(300)));
    assertThat(first.outcome()).isEqualTo(RunOutcome.SUCCEEDED);
    assertThat(a.state().running()).isFalse();
    assertThat(f.claimHeld("report")).isTrue();

    f.clock.advance(ms(4699)); // 4.999 s after the claim request
    assertThat(b.run(claim -> {}).outcome()).isEqualTo(RunOutcome.SKIPPED);
    assertThat(a.run(claim -> {}).outcome()).isEqualTo(RunOutcome.SKIPPED);
    assertThat(f.claimHeld("report")).isTrue();

    f.clock.advance(ms(1)); // 5 s: the minimum hold ends, the claim is released
    assertThat(f.claimHeld("report")).isFalse();
    RunResult next = b.run(claim -> {});
    assertThat(next.outcome()).isEqualTo(RunOutcome.SUCCEEDED);
    assertThat(next.fencingToken()).isGreaterThan(first.fencingToken());
  }

  @Test
  void maxLatenessBelowTheMinimumHoldRunsAnOccurrenceAtMostOnce() {
    ScheduleOptions o = opts("report").minimumHold(ms(150)).maxLateness(ms(100)).build();
    ScheduleGuard a = f.guard(f.instanceA, o);
    ScheduleGuard b = f.guard(f.instanceB, o);
    java.time.Instant due = f.clock.instant();

    assertThat(a.run(due, c -> {}).outcome()).isEqualTo(RunOutcome.SUCCEEDED);
    f.clock.advance(ms(100)); // b is 100 ms late: a still holds the claim
    assertThat(b.run(due, c -> {}).outcome()).isEqualTo(RunOutcome.SKIPPED);
    f.clock.advance(ms(50)); // 150 ms: a released; b, later than 100 ms, must not claim
    assertThat(f.claimHeld("report")).isFalse();
    long acquires = f.faults.calls(Operation.ACQUIRE);
    assertThat(b.run(due, c -> {}).outcome()).isEqualTo(RunOutcome.SKIPPED);
    assertThat(f.faults.calls(Operation.ACQUIRE)).isEqualTo(acquires);
    // the next occurrence is on time again
    assertThat(b.run(f.clock.instant(), c -> {}).outcome()).isEqualTo(RunOutcome.SUCCEEDED);
  }

  @Test
  void aClaimGrantedLaterThanMaxLatenessIsReleasedAndSkipped() {
    ScheduleGuard guard = f.guard(f.instanceA, opts("report").maxLateness(ms(100)).build());
    java.time.Instant due = f.clock.instant();
    f.faults.holdReplies(Operation.ACQUIRE);
    CompletableFuture<RunResult> run = f.runInBackground(guard, c -> {});
    TestTiming.await("the claim is sent", () -> f.faults.heldReplyCount() == 1, WAIT);
    f.clock.advance(ms(101));
    f.faults.deliverReplies();
    RunResult r = TestTiming.get(run, WAIT);
    assertThat(r.occurrence()).isBeforeOrEqualTo(due.plusMillis(1));
    assertThat(r.outcome()).isEqualTo(RunOutcome.SKIPPED);
    assertThat(guard.state().runCount()).isZero();
    assertThat(f.claimHeld("report")).isFalse();
  }

  @Test
  void aRunLongerThanTheMinimumHoldReleasesAtItsEnd() {
    ScheduleGuard guard = f.guard(f.instanceA, opts("report").minimumHold(ms(500)).build());
    RunResult r = guard.run(claim -> f.clock.advance(ms(700)));
    assertThat(r.outcome()).isEqualTo(RunOutcome.SUCCEEDED);
    assertThat(f.claimHeld("report")).isFalse();
    assertThat(f.clock.pendingTimers()).isZero();
  }

  @Test
  void autoExtensionKeepsTheClaimUpToMaxHoldThenItIsLost() throws Exception {
    ScheduleGuard guard =
        f.guard(
            f.instanceA, opts("report").lease(ms(2000)).autoExtend(true).maxHold(ms(5000)).build());
    CountDownLatch inside = new CountDownLatch(1);
    CountDownLatch proceed = new CountDownLatch(1);
    ScheduleClaim[] claim = new ScheduleClaim[1];
    CompletableFuture<RunResult> run =
        f.runInBackground(
            guard,
            c -> {
              claim[0] = c;
              inside.countDown();
              proceed.await();
            });
    assertThat(inside.await(10, TimeUnit.SECONDS)).isTrue();

    f.clock.advance(ms(4999)); // extended at 1, 2 and 3 s (the last to exactly 5 s)
    assertThat(claim[0].isHeld()).isTrue();
    assertThat(claim[0].leaseEnd()).isEqualTo(f.clock.instant().plusMillis(1));
    assertThat(f.faults.calls(Operation.EXTEND)).isEqualTo(3);
    f.clock.advance(ms(1));
    assertThat(claim[0].isHeld()).isFalse();
    proceed.countDown();

    assertThat(TestTiming.get(run, WAIT).outcome()).isEqualTo(RunOutcome.CLAIM_LOST);
    assertThat(f.faults.calls(Operation.EXTEND)).isEqualTo(3);
  }

  @Test
  void aFailedExtensionIsRetriedAndTheRunStillSucceeds() throws Exception {
    ScheduleGuard guard =
        f.guard(f.instanceA, opts("report").lease(ms(2000)).autoExtend(true).build());
    CountDownLatch inside = new CountDownLatch(1);
    CountDownLatch proceed = new CountDownLatch(1);
    CompletableFuture<RunResult> run =
        f.runInBackground(
            guard,
            c -> {
              inside.countDown();
              proceed.await();
            });
    assertThat(inside.await(10, TimeUnit.SECONDS)).isTrue();
    f.faults.failNext(1, LockFailureKind.TIMEOUT, Operation.EXTEND);

    f.clock.advance(ms(1000)); // fails: 1 s left, tried again in 0.5 s
    f.clock.advance(ms(500)); // extended to 3.5 s
    f.clock.advance(ms(1900));
    proceed.countDown();

    assertThat(TestTiming.get(run, WAIT).outcome()).isEqualTo(RunOutcome.SUCCEEDED);
    assertThat(f.faults.faulted()).isEqualTo(1); // at 1.0 s
    assertThat(f.faults.calls(Operation.EXTEND)).isEqualTo(2); // reached the backend: 1.5, 2.5 s
  }

  @Test
  void aBoundedWaitClaimsOnceTheHolderReleases() throws Exception {
    ScheduleGuard a = f.guard(f.instanceA, opts("report").minimumHold(ms(300)).build());
    ScheduleGuard b =
        f.guard(
            f.instanceB,
            opts("report")
                .maxWait(ms(1000))
                .retry(io.hostloom.locking.LockRetryPolicy.interval(20, ms(100)))
                .build());
    assertThat(a.run(c -> {}).outcome()).isEqualTo(RunOutcome.SUCCEEDED); // held until 300 ms
    int timersBefore = f.clock.pendingTimers();
    long acquiresBefore = f.faults.calls(Operation.ACQUIRE);
    CompletableFuture<RunResult> waiting = f.runInBackground(b, c -> {});
    TestTiming.await(
        "b waits for its retry",
        () ->
            f.faults.calls(Operation.ACQUIRE) > acquiresBefore
                && f.clock.pendingTimers() > timersBefore,
        WAIT);

    f.clock.advance(ms(300));
    f.clock.advance(ms(100));

    assertThat(TestTiming.get(waiting, WAIT).outcome()).isEqualTo(RunOutcome.SUCCEEDED);
  }

  @Test
  void aFailingListenerChangesNothing() {
    ScheduleGuard guard =
        ScheduleGuard.builder(f.instanceA, opts("report").build())
            .clock(f.clock)
            .listener(
                new ScheduleListener() {
                  @Override
                  public void runStarted(ScheduleClaim claim) {
                    throw new IllegalStateException("listener");
                  }

                  @Override
                  public void runFinished(RunResult result) {
                    throw new IllegalStateException("listener");
                  }
                })
            .build();
    AtomicInteger ran = new AtomicInteger();
    assertThat(guard.run(c -> ran.incrementAndGet()).outcome()).isEqualTo(RunOutcome.SUCCEEDED);
    assertThat(ran).hasValue(1);
    assertThat(f.claimHeld("report")).isFalse();
  }

  @Test
  void disabledLockingRunsEveryOccurrenceWithAPlaceholderClaim() {
    try (DistributedLock disabled =
        DistributedLock.builder(
                LockingOptions.builder().namespace("app").enabled(false).build(), null)
            .clock(f.clock)
            .build()) {
      ScheduleGuard guard = f.guard(disabled, opts("report").build());
      boolean[] coordinated = {true};
      RunResult r = guard.run(c -> coordinated[0] = c.isCoordinated());
      assertThat(r.outcome()).isEqualTo(RunOutcome.SUCCEEDED);
      assertThat(r.fencingToken()).isZero();
      assertThat(coordinated[0]).isFalse();
    }
  }

  @Test
  void wrappedRunnableNeverThrowsAndRecordsTheOutcome() throws Exception {
    ScheduleGuard guard = f.guard(f.instanceA, opts("report").build());
    Runnable r =
        guard.wrap(
            c -> {
              throw new IllegalStateException("boom");
            });
    r.run();
    assertThat(guard.state().lastResult())
        .get()
        .extracting(RunResult::outcome)
        .isEqualTo(RunOutcome.FAILED);
    assertThat(guard.wrapCallable(c -> {}).call().outcome()).isEqualTo(RunOutcome.SUCCEEDED);
  }

  @Test
  void misconfigurationIsRejectedNamingTheSchedule() {
    assertThatThrownBy(() -> ScheduleOptions.builder(""))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("empty");
    assertThatThrownBy(() -> ScheduleOptions.builder("a b"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'a b'");
    assertThatThrownBy(() -> opts("report").lease(ms(1000)).minimumHold(ms(1001)).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'report'")
        .hasMessageContaining("minimumHold")
        .hasMessageContaining("PT1.001S");
    assertThatThrownBy(
            () -> opts("report").lease(ms(1000)).autoExtend(true).maxHold(ms(999)).build())
        .hasMessageContaining("maxHold");
    ScheduleOptions tooLong = opts("report").lease(Duration.ofMinutes(6)).build();
    assertThatThrownBy(() -> ScheduleGuard.of(f.instanceA, tooLong))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("'report'")
        .hasMessageContaining(LockingOptions.KEY_MAX_LEASE);
    assertThat(ScheduleGuard.of(new KernelLockHolder().lock, tooLong)).isNotNull();
  }

  /** A lock whose max lease allows a six-minute lease. */
  private static final class KernelLockHolder {
    final DistributedLock lock =
        DistributedLock.builder(
                LockingOptions.builder().namespace("x").maxLease(Duration.ofMinutes(10)).build(),
                new InMemoryLockBackend())
            .build();
  }
}
