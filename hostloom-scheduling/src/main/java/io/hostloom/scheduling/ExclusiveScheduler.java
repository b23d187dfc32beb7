package io.hostloom.scheduling;

import io.hostloom.locking.time.LockClock;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.Executor;
import java.util.concurrent.ScheduledExecutorService;

/**
 * Drives guarded schedules by triggers (fixed rate, fixed delay, cron) for code without Spring.
 * Each schedule waits for its next due time, runs the occurrence through its {@link ScheduleGuard}
 * on the runner, then asks its trigger for the next one: runs of one schedule never overlap, a late
 * run starts at once, missed occurrences are not replayed (see {@link ScheduleTrigger}).
 *
 * <pre>{@code
 * ScheduledExecutorService executor = Executors.newScheduledThreadPool(2);
 * ExclusiveScheduler scheduler = ExclusiveScheduler.on(executor);
 * ScheduleHandle report = scheduler.schedule(
 *     ScheduleGuard.of(locks, ScheduleOptions.builder("nightly-report").lease(ofMinutes(10)).build()),
 *     ScheduleTrigger.cron("0 0 2 * * *", ZoneId.of("Europe/Berlin")),
 *     claim -> runReport(claim.fencingToken()));
 * }</pre>
 *
 * <p>Waiting happens on the clock's timers, never on the runner; a run occupies one runner thread
 * for the claim, the job and the release. Thread-safe.
 */
public final class ExclusiveScheduler {
  private final LockClock clock;
  private final Executor runner;

  private ExclusiveScheduler(LockClock clock, Executor runner) {
    this.clock = Objects.requireNonNull(clock, "clock");
    this.runner = Objects.requireNonNull(runner, "runner");
  }

  /** Waits and runs on {@code executor}, due times on the system wall clock. */
  public static ExclusiveScheduler on(ScheduledExecutorService executor) {
    return new ExclusiveScheduler(LockClock.system(executor), executor);
  }

  /**
   * Waits on {@code clock}'s timers (which must not block, so runs are handed to {@code runner})
   * and reads due times from {@code clock.instant()}. Tests pass a {@code ManualLockClock} and a
   * direct executor.
   */
  public static ExclusiveScheduler create(LockClock clock, Executor runner) {
    return new ExclusiveScheduler(clock, runner);
  }

  /**
   * Starts driving {@code job} through {@code guard} at the occurrences of {@code trigger}.
   *
   * @return a handle to stop the schedule and read its state
   */
  public ScheduleHandle schedule(ScheduleGuard guard, ScheduleTrigger trigger, ScheduledJob job) {
    Driven d = new Driven(guard, trigger, job);
    d.arm(trigger.first(clock.instant()));
    return d;
  }

  private final class Driven implements ScheduleHandle {
    private final ScheduleGuard guard;
    private final ScheduleTrigger trigger;
    private final ScheduledJob job;
    private Instant nextDue;
    private LockClock.Timer timer;
    private boolean cancelled;

    Driven(ScheduleGuard guard, ScheduleTrigger trigger, ScheduledJob job) {
      this.guard = Objects.requireNonNull(guard, "guard");
      this.trigger = Objects.requireNonNull(trigger, "trigger");
      this.job = Objects.requireNonNull(job, "job");
    }

    synchronized void arm(Optional<Instant> due) {
      nextDue = cancelled ? null : due.orElse(null);
      if (nextDue == null) {
        return;
      }
      Instant at = nextDue;
      Duration delay = Duration.between(clock.instant(), at);
      timer = clock.schedule(delay.isNegative() ? Duration.ZERO : delay, () -> hand(at));
    }

    private void hand(Instant due) {
      try {
        runner.execute(() -> fire(due));
      } catch (RuntimeException e) { // a runner shut down: the schedule ends
        guard
            .log()
            .error(
                "ScheduleTriggerFailed [3409] schedule '{}': the runner refused the run of {},"
                    + " the schedule stops",
                guard.name(),
                due,
                e);
        cancel();
      }
    }

    private void fire(Instant due) {
      synchronized (this) {
        if (cancelled) {
          return;
        }
      }
      Instant start = clock.instant();
      guard.run(due, job);
      Instant end = clock.instant();
      Optional<Instant> next;
      try {
        next = trigger.next(due, start, end);
      } catch (RuntimeException e) {
        guard
            .log()
            .error(
                "ScheduleTriggerFailed [3409] schedule '{}': the trigger failed after {}, the"
                    + " schedule stops",
                guard.name(),
                due,
                e);
        next = Optional.empty();
      }
      next.filter(n -> !n.isAfter(end) && !n.equals(due))
          .ifPresent(
              late ->
                  guard
                      .log()
                      .info(
                          "ScheduleRunLate [3408] schedule '{}': the run of {} ended at {}, the"
                              + " occurrence of {} starts at once, earlier missed ones are dropped",
                          guard.name(),
                          due,
                          end,
                          late));
      arm(next);
    }

    @Override
    public String name() {
      return guard.name();
    }

    @Override
    public synchronized Optional<Instant> nextDue() {
      return Optional.ofNullable(nextDue);
    }

    @Override
    public ScheduleState state() {
      return guard.state(nextDue());
    }

    @Override
    public synchronized void cancel() {
      cancelled = true;
      nextDue = null;
      if (timer != null) {
        timer.cancel();
      }
    }

    @Override
    public synchronized boolean isCancelled() {
      return cancelled;
    }
  }
}
