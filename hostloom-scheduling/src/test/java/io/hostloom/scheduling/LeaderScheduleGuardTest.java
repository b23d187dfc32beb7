package io.hostloom.scheduling;

import static java.time.Duration.ofSeconds;
import static org.assertj.core.api.Assertions.assertThat;

import io.hostloom.leadership.LeaderElector;
import io.hostloom.leadership.Leadership;
import io.hostloom.leadership.testing.ScriptedLeaderElection;
import io.hostloom.locking.LossReason;
import io.hostloom.locking.OnLost;
import io.hostloom.locking.testing.CountingLockBackend.Operation;
import io.hostloom.testkit.TestTiming;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Leader-only schedules: the claim is the current term, on the manual clock. */
class LeaderScheduleGuardTest {
  private static final Duration WAIT = Duration.ofSeconds(10);

  private final GuardFixture f = new GuardFixture();
  private final ScriptedLeaderElection election =
      new ScriptedLeaderElection("billing", wall(Duration.ZERO));

  /** The fixture's manual wall clock, {@code offset} off: an instance whose clock is skewed. */
  private Clock wall(Duration offset) {
    return new Clock() {
      @Override
      public ZoneId getZone() {
        return ZoneOffset.UTC;
      }

      @Override
      public Clock withZone(ZoneId zone) {
        return this;
      }

      @Override
      public Instant instant() {
        return f.clock.instant().plus(offset);
      }
    };
  }

  @AfterEach
  void close() throws InterruptedException {
    f.close();
  }

  private ScheduleGuard guard(ScheduleOptions options) {
    return LeaderScheduleGuard.builder(election, options)
        .clock(f.clock)
        .listener(
            new ScheduleListener() {
              @Override
              public void runFinished(RunResult result) {
                f.finished.add(result);
              }
            })
        .build();
  }

  private long backendCalls() {
    long n = 0;
    for (Operation op : Operation.values()) {
      n += f.faults.calls(op);
    }
    return n;
  }

  @Test
  void theLeaderRunsWithItsTermAsTheFencingToken() {
    Leadership term = election.hold(41);
    ScheduleGuard guard = guard(ScheduleOptions.of("invoice-run"));
    List<ScheduleClaim> claims = new ArrayList<>();

    RunResult r = guard.run(claims::add);

    assertThat(r.outcome()).isEqualTo(RunOutcome.SUCCEEDED);
    assertThat(r.fencingToken()).isEqualTo(term.term()).isEqualTo(41);
    assertThat(claims)
        .singleElement()
        .satisfies(
            c -> {
              assertThat(c.fencingToken()).isEqualTo(41);
              assertThat(c.isCoordinated()).isTrue();
              assertThat(c.leaseEnd()).isEqualTo(Instant.MAX);
            });
    assertThat(claims.get(0).isHeld()).isTrue(); // the run ended, the term goes on
    assertThat(guard.state().runCount()).isEqualTo(1);
  }

  @Test
  void aFollowerSkipsWithoutRunning() {
    ScheduleGuard guard = guard(ScheduleOptions.of("invoice-run"));
    AtomicInteger ran = new AtomicInteger();

    RunResult r = guard.run(claim -> ran.incrementAndGet());

    assertThat(r.outcome()).isEqualTo(RunOutcome.SKIPPED);
    assertThat(r.fencingToken()).isZero();
    assertThat(ran).hasValue(0);
    assertThat(guard.state().runCount()).isZero();
    assertThat(f.finished).containsExactly(r);

    election.hold();
    election.lose();
    assertThat(guard.run(claim -> ran.incrementAndGet()).outcome()).isEqualTo(RunOutcome.SKIPPED);
    assertThat(ran).hasValue(0);
  }

  @Test
  void leadershipLostMidRunEndsTheRunAsClaimLost() {
    election.hold();
    ScheduleGuard guard = guard(ScheduleOptions.of("invoice-run"));
    List<LossReason> reasons = new ArrayList<>();

    RunResult r =
        guard.run(
            claim -> {
              claim.lost().thenAccept(reasons::add);
              election.lose();
              assertThat(claim.isHeld()).isFalse();
            });

    assertThat(r.outcome()).isEqualTo(RunOutcome.CLAIM_LOST);
    assertThat(r.fencingToken()).isEqualTo(1);
    assertThat(reasons).containsExactly(LossReason.EXPIRED);
  }

  @Test
  void resigningMidRunWithCancelInterruptsTheJob() throws Exception {
    election.hold();
    ScheduleGuard guard =
        guard(ScheduleOptions.builder("invoice-run").onLost(OnLost.CANCEL).build());
    CountDownLatch inside = new CountDownLatch(1);
    AtomicBoolean interrupted = new AtomicBoolean();
    CompletableFuture<RunResult> run =
        f.runInBackground(
            guard,
            claim -> {
              inside.countDown();
              try {
                new CountDownLatch(1).await(); // until interrupted
              } catch (InterruptedException e) {
                interrupted.set(true);
              }
            });
    assertThat(inside.await(10, TimeUnit.SECONDS)).isTrue();

    election.resign();

    RunResult r = TestTiming.get(run, WAIT);
    assertThat(r.outcome()).isEqualTo(RunOutcome.CLAIM_LOST);
    assertThat(interrupted).isTrue();
  }

  @Test
  void aTimeoutStillInterruptsALeadersRun() throws Exception {
    election.hold();
    ScheduleGuard guard =
        guard(ScheduleOptions.builder("invoice-run").timeout(Duration.ofSeconds(5)).build());
    CountDownLatch inside = new CountDownLatch(1);
    CompletableFuture<RunResult> run =
        f.runInBackground(
            guard,
            claim -> {
              inside.countDown();
              new CountDownLatch(1).await(); // until interrupted
            });
    assertThat(inside.await(10, TimeUnit.SECONDS)).isTrue();

    f.clock.advance(Duration.ofSeconds(5));

    assertThat(TestTiming.get(run, WAIT).outcome()).isEqualTo(RunOutcome.TIMED_OUT);
    assertThat(election.isLeader()).isTrue();
  }

  @Test
  void aBoundedWaitRunsOnceThisInstanceLeadsWithATermThatBeganByTheOccurrence() throws Exception {
    ScheduleGuard guard =
        guard(ScheduleOptions.builder("invoice-run").maxWait(Duration.ofMinutes(1)).build());
    Instant due = f.clock.instant().plusSeconds(1);
    CompletableFuture<RunResult> run = CompletableFuture.supplyAsync(() -> guard.run(due, c -> {}));

    election.hold(7);

    RunResult r = TestTiming.get(run, WAIT);
    assertThat(r.outcome()).isEqualTo(RunOutcome.SUCCEEDED);
    assertThat(r.fencingToken()).isEqualTo(7);
  }

  @Test
  void aRunThatWaitedForLeadershipSkipsAnOccurrenceTheOldLeaderMayHaveRun() throws Exception {
    ScriptedLeaderElection old = new ScriptedLeaderElection("billing", wall(Duration.ZERO));
    ScheduleGuard oldGuard =
        LeaderScheduleGuard.builder(old, ScheduleOptions.of("invoice-run")).clock(f.clock).build();
    ScheduleGuard waiting =
        guard(ScheduleOptions.builder("invoice-run").maxWait(Duration.ofMinutes(1)).build());
    AtomicInteger runs = new AtomicInteger();
    Instant due = f.clock.instant();
    old.hold(1);
    CompletableFuture<RunResult> run =
        CompletableFuture.supplyAsync(() -> waiting.run(due, c -> runs.incrementAndGet()));

    assertThat(oldGuard.run(due, c -> runs.incrementAndGet()).outcome())
        .isEqualTo(RunOutcome.SUCCEEDED);
    f.clock.advance(Duration.ofSeconds(1)); // the hand-over
    old.lose();
    election.hold(2);

    assertThat(TestTiming.get(run, WAIT).outcome()).isEqualTo(RunOutcome.SKIPPED);
    assertThat(runs).hasValue(1);
  }

  @Test
  void aNewLeaderWhoseClockIsBehindSkipsWhatTheOldLeaderRanWithinTheMinimumHold() {
    ScriptedLeaderElection old = new ScriptedLeaderElection("billing", wall(Duration.ZERO));
    ScriptedLeaderElection behind = new ScriptedLeaderElection("billing", wall(ofSeconds(-5)));
    ScheduleOptions tolerant =
        ScheduleOptions.builder("invoice-run").minimumHold(ofSeconds(10)).build();
    ScheduleGuard oldGuard = LeaderScheduleGuard.builder(old, tolerant).clock(f.clock).build();
    ScheduleGuard newGuard = LeaderScheduleGuard.builder(behind, tolerant).clock(f.clock).build();
    AtomicInteger runs = new AtomicInteger();
    old.hold(1);
    f.clock.advance(ofSeconds(20)); // a term older than the allowance runs what is due
    Instant due = f.clock.instant();
    assertThat(oldGuard.run(due, c -> runs.incrementAndGet()).outcome())
        .isEqualTo(RunOutcome.SUCCEEDED);

    f.clock.advance(ofSeconds(1)); // hand-over; the new leader's term began at due - 4 s
    old.lose();
    behind.hold(2);
    f.clock.advance(ofSeconds(5)); // the new leader's clock reaches the occurrence

    assertThat(newGuard.run(due, c -> runs.incrementAndGet()).outcome())
        .isEqualTo(RunOutcome.SKIPPED);
    assertThat(runs).hasValue(1);
    Instant later = due.plusSeconds(20); // past the allowance: the new term runs it
    assertThat(newGuard.run(later, c -> runs.incrementAndGet()).outcome())
        .isEqualTo(RunOutcome.SUCCEEDED);
  }

  @Test
  void aRealElectorsScheduleMakesNoBackendCallPerOccurrence() {
    try (LeaderElector elector =
        LeaderElector.builder(f.instanceA, "billing")
            .clock(f.clock)
            .jitterSource(() -> 0.0)
            .build()) {
      elector.start();
      f.clock.runDueTasks();
      long term = elector.leadership().orElseThrow().term();
      ScheduleGuard guard =
          LeaderScheduleGuard.builder(elector, ScheduleOptions.of("invoice-run"))
              .clock(f.clock)
              .build();
      long before = backendCalls();
      List<ScheduleHandle> handles = new ArrayList<>();
      AtomicInteger runs = new AtomicInteger();

      // every 100 ms for 4 s, between two renewals (every 5 s): only the renewal talks to the
      // backend
      handles.add(
          ExclusiveScheduler.create(f.clock, Runnable::run)
              .schedule(
                  guard,
                  ScheduleTrigger.fixedRate(Duration.ofMillis(100)),
                  c -> runs.incrementAndGet()));
      for (int i = 0; i < 40; i++) {
        f.clock.advance(Duration.ofMillis(100));
      }

      assertThat(runs).hasValue(41); // at 0, 100 ms, ..., 4 s
      assertThat(backendCalls()).isEqualTo(before);
      assertThat(guard.state().lastResult().orElseThrow().fencingToken()).isEqualTo(term);
      handles.forEach(ScheduleHandle::cancel);
    }
  }
}
