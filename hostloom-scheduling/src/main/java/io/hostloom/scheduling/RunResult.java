package io.hostloom.scheduling;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * What one occurrence of a schedule did in this process.
 *
 * @param schedule the schedule's name
 * @param occurrence the instant the occurrence was due (for a run without a trigger: when it was
 *     asked for)
 * @param outcome how it ended
 * @param fencingToken the claim's fencing token when the job started; {@code 0} otherwise
 * @param duration how long the job ran; {@link Duration#ZERO} when it never started
 * @param failure what the job threw, or the lock failure of {@link RunOutcome#GUARD_FAILED}
 */
public record RunResult(
    String schedule,
    Instant occurrence,
    RunOutcome outcome,
    long fencingToken,
    Duration duration,
    Optional<Throwable> failure) {
  public RunResult {
    Objects.requireNonNull(schedule, "schedule");
    Objects.requireNonNull(occurrence, "occurrence");
    Objects.requireNonNull(outcome, "outcome");
    Objects.requireNonNull(duration, "duration");
    Objects.requireNonNull(failure, "failure");
  }

  /**
   * Throws what the run failed with, for callers (such as a Spring {@code @Scheduled} proxy) whose
   * error handling expects the job's exception: for {@link RunOutcome#FAILED}, {@link
   * RunOutcome#TIMED_OUT} and {@link RunOutcome#GUARD_FAILED}, the failure itself when unchecked,
   * else wrapped in {@link ScheduleRunException}. Returns this result otherwise.
   */
  public RunResult throwIfFailed() {
    boolean failed =
        outcome == RunOutcome.FAILED
            || outcome == RunOutcome.TIMED_OUT
            || outcome == RunOutcome.GUARD_FAILED;
    if (!failed) {
      return this;
    }
    Throwable t = failure.orElse(null);
    if (t instanceof RuntimeException r) {
      throw r;
    }
    if (t instanceof Error e) {
      throw e;
    }
    throw ScheduleRunException.of(this);
  }

  @Override
  public String toString() {
    return "RunResult["
        + schedule
        + " @ "
        + occurrence
        + ": "
        + outcome
        + ", token="
        + fencingToken
        + ", duration="
        + duration
        + failure.map(f -> ", failure=" + f).orElse("")
        + "]";
  }
}
