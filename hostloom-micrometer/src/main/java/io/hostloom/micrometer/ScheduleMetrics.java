package io.hostloom.micrometer;

import io.hostloom.scheduling.RunResult;
import io.hostloom.scheduling.ScheduleListener;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.util.Objects;

/**
 * Micrometer meters for schedules, tagged with the schedule's name ({@code hostloom.schedule}, a
 * low-cardinality tag: one value per schedule) and the outcome ({@code hostloom.schedule.outcome},
 * {@link io.hostloom.scheduling.RunOutcome#tagValue()}):
 *
 * <ul>
 *   <li>{@code hostloom.schedule.runs} (counter): every occurrence, skips and guard failures
 *       included;
 *   <li>{@code hostloom.schedule.duration} (timer): how long the jobs that started ran.
 * </ul>
 *
 * Needs {@code micrometer-core} (an optional dependency of this module). Pass it as the guard's
 * listener; it never throws into the guard.
 */
public final class ScheduleMetrics implements ScheduleListener {
  public static final String RUNS = "hostloom.schedule.runs";
  public static final String DURATION = "hostloom.schedule.duration";
  public static final String TAG_SCHEDULE = "hostloom.schedule";
  public static final String TAG_OUTCOME = "hostloom.schedule.outcome";

  private final MeterRegistry registry;

  public ScheduleMetrics(MeterRegistry registry) {
    this.registry = Objects.requireNonNull(registry, "registry");
  }

  @Override
  public void runFinished(RunResult result) {
    String outcome = result.outcome().tagValue();
    Counter.builder(RUNS)
        .description("Occurrences of a schedule in this process, by outcome")
        .tag(TAG_SCHEDULE, result.schedule())
        .tag(TAG_OUTCOME, outcome)
        .register(registry)
        .increment();
    if (result.outcome().jobStarted()) {
      Timer.builder(DURATION)
          .description("How long the jobs of a schedule ran")
          .tag(TAG_SCHEDULE, result.schedule())
          .tag(TAG_OUTCOME, outcome)
          .register(registry)
          .record(result.duration());
    }
  }
}
