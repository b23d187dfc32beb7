package io.hostloom.scheduling;

import static io.hostloom.scheduling.GuardFixture.ms;
import static org.assertj.core.api.Assertions.assertThat;

import io.hostloom.testkit.TestTiming;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The trigger-driven loop on the manual clock; runs happen inline on the advancing thread. */
class ExclusiveSchedulerTest {
  private final GuardFixture f = new GuardFixture();
  private final ExclusiveScheduler scheduler = ExclusiveScheduler.create(f.clock, Runnable::run);
  private final List<Instant> occurrences = new CopyOnWriteArrayList<>();

  @AfterEach
  void close() throws InterruptedException {
    f.close();
  }

  private ScheduleGuard guard(ScheduleOptions.Builder b) {
    return f.guard(f.instanceA, b.build());
  }

  @Test
  void fixedRateRunsEveryPeriodAndReportsItsState() {
    ScheduleHandle h =
        scheduler.schedule(
            guard(ScheduleOptions.builder("tick")),
            ScheduleTrigger.fixedRate(ms(200)),
            claim -> occurrences.add(claim.occurrence()));

    f.clock.advance(ms(1000));

    Instant t0 = ManualClockEpoch.T0;
    assertThat(occurrences)
        .containsExactly(
            t0,
            t0.plusMillis(200),
            t0.plusMillis(400),
            t0.plusMillis(600),
            t0.plusMillis(800),
            t0.plusMillis(1000));
    ScheduleState s = h.state();
    assertThat(s.runCount()).isEqualTo(6);
    assertThat(s.nextDue()).contains(t0.plusMillis(1200));
    assertThat(s.running()).isFalse();
    assertThat(s.lastResult()).get().extracting(RunResult::outcome).isEqualTo(RunOutcome.SUCCEEDED);

    h.cancel();
    f.clock.advance(ms(1000));
    assertThat(occurrences).hasSize(6);
    assertThat(h.nextDue()).isEmpty();
    assertThat(h.isCancelled()).isTrue();
  }

  @Test
  void aLateRunStartsAtOnceAndMissedOccurrencesAreNotReplayed() {
    scheduler.schedule(
        guard(ScheduleOptions.builder("slow")),
        ScheduleTrigger.fixedRate(ms(200)),
        claim -> {
          occurrences.add(claim.occurrence());
          if (occurrences.size() == 1) {
            f.clock.advance(ms(650)); // overruns the 200, 400 and 600 ms occurrences
          }
        });

    // the first run happens here (nested advances add up, so the outer one moves no time)
    f.clock.runDueTasks();
    f.clock.advance(ms(350));

    Instant t0 = ManualClockEpoch.T0;
    assertThat(occurrences)
        .containsExactly(t0, t0.plusMillis(600), t0.plusMillis(800), t0.plusMillis(1000));
    assertThat(f.finished).extracting(RunResult::outcome).containsOnly(RunOutcome.SUCCEEDED);
  }

  @Test
  void fixedDelayWaitsAfterEachRun() {
    scheduler.schedule(
        guard(ScheduleOptions.builder("delay")),
        ScheduleTrigger.fixedDelay(ms(200)),
        claim -> {
          occurrences.add(claim.occurrence());
          if (occurrences.size() == 1) {
            f.clock.advance(ms(100)); // the first run takes 100 ms
          }
        });

    f.clock.runDueTasks(); // the first run, ending at 100 ms
    f.clock.advance(ms(400));

    Instant t0 = ManualClockEpoch.T0;
    assertThat(occurrences).containsExactly(t0, t0.plusMillis(300), t0.plusMillis(500));
  }

  @Test
  void occurrencesClaimedElsewhereAreSkippedAndTheScheduleGoesOn() {
    ScheduleOptions o = ScheduleOptions.builder("shared").minimumHold(ms(150)).build();
    scheduler.schedule(
        f.guard(f.instanceA, o),
        ScheduleTrigger.fixedRateAligned(ms(200)),
        claim -> occurrences.add(claim.occurrence()));
    scheduler.schedule(
        f.guard(f.instanceB, o), ScheduleTrigger.fixedRateAligned(ms(200)), claim -> {});

    f.clock.advance(ms(1000));

    // each occurrence ran exactly once, on whichever instance claimed it first
    assertThat(
            f.finished.stream()
                .filter(r -> r.outcome() == RunOutcome.SUCCEEDED)
                .map(RunResult::occurrence))
        .doesNotHaveDuplicates()
        .hasSize(6);
    assertThat(f.finished)
        .extracting(RunResult::outcome)
        .contains(RunOutcome.SKIPPED)
        .containsOnly(RunOutcome.SUCCEEDED, RunOutcome.SKIPPED);
  }

  @Test
  void cronOccurrenceAcrossADaylightSavingChange() {
    // the clock starts on 2026-03-29 00:30 CET, half an hour before Berlin skips 02:00-03:00
    GuardFixture dst = new GuardFixture(Instant.parse("2026-03-28T23:30:00Z"));
    try {
      ExclusiveScheduler s = ExclusiveScheduler.create(dst.clock, Runnable::run);
      List<Instant> seen = new CopyOnWriteArrayList<>();
      ScheduleHandle h =
          s.schedule(
              dst.guard(dst.instanceA, ScheduleOptions.of("hourly")),
              ScheduleTrigger.cron("0 0 * * * *", ZoneId.of("Europe/Berlin")),
              claim -> seen.add(claim.occurrence()));

      dst.clock.advance(Duration.ofHours(3));

      // 01:00 CET, then 03:00 CEST (02:00 does not exist), then 04:00 CEST: one hour apart
      assertThat(seen)
          .containsExactly(
              Instant.parse("2026-03-29T00:00:00Z"),
              Instant.parse("2026-03-29T01:00:00Z"),
              Instant.parse("2026-03-29T02:00:00Z"));
      assertThat(h.nextDue()).contains(Instant.parse("2026-03-29T03:00:00Z"));
      h.cancel();
    } finally {
      try {
        dst.close();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }

  @Test
  void onAScheduledExecutorServiceTheRunsHappenOnItsThreads() throws Exception {
    ScheduledExecutorService executor = Executors.newScheduledThreadPool(1);
    try {
      ScheduleGuard guard = ScheduleGuard.of(f.instanceA, ScheduleOptions.builder("real").build());
      List<String> threads = new CopyOnWriteArrayList<>();
      ScheduleHandle h =
          ExclusiveScheduler.on(executor)
              .schedule(
                  guard,
                  ScheduleTrigger.fixedDelay(ms(10)),
                  claim -> threads.add(Thread.currentThread().getName()));
      TestTiming.await("three runs", () -> threads.size() >= 3, Duration.ofSeconds(10));
      h.cancel();
      assertThat(threads).allMatch(n -> n.startsWith("pool-"));
      assertThat(guard.state().lastResult())
          .get()
          .extracting(RunResult::outcome)
          .isEqualTo(RunOutcome.SUCCEEDED);
    } finally {
      executor.shutdownNow();
      assertThat(executor.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
    }
  }

  /** The fixture clock's start. */
  private static final class ManualClockEpoch {
    static final Instant T0 = io.hostloom.locking.testing.ManualLockClock.DEFAULT_EPOCH;
  }
}
