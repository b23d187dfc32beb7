package io.hostloom.scheduling;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.Optional;

/**
 * When the occurrences of a schedule are due, on the wall clock. Pure functions of their arguments,
 * so they are tested without any clock.
 *
 * <p><b>Late runs start at once; missed occurrences are not replayed.</b> When a run ends after one
 * or more later occurrences were due, {@link #next} answers the latest of those (already in the
 * past, so it starts at once) and the earlier ones are dropped.
 */
public interface ScheduleTrigger {

  /** The first occurrence for a schedule started at {@code now}; empty when there is none. */
  Optional<Instant> first(Instant now);

  /**
   * The occurrence after the one due at {@code due}, whose run started at {@code start} and ended
   * at {@code end}; empty when there is none. Always after {@code due}.
   */
  Optional<Instant> next(Instant due, Instant start, Instant end);

  /** Every {@code period} from the start, measured between due times (not run ends). */
  static ScheduleTrigger fixedRate(Duration period) {
    return FixedRateTrigger.startingAfter(period, Duration.ZERO);
  }

  /** Every {@code period}, the first {@code initialDelay} after the start. */
  static ScheduleTrigger fixedRate(Duration period, Duration initialDelay) {
    return FixedRateTrigger.startingAfter(period, initialDelay);
  }

  /**
   * Every {@code period} at the instants {@code Instant.EPOCH + k * period}: every process that
   * uses it has the same occurrences, whenever it started (what a claim per occurrence needs when
   * several instances schedule the same job at a sub-second rate cron cannot express).
   */
  static ScheduleTrigger fixedRateAligned(Duration period) {
    return FixedRateTrigger.aligned(period);
  }

  /** {@code delay} after each run ended; the first {@code initialDelay} after the start. */
  static ScheduleTrigger fixedDelay(Duration delay, Duration initialDelay) {
    return new FixedDelayTrigger(delay, initialDelay);
  }

  /** {@link #fixedDelay(Duration, Duration)} starting at once. */
  static ScheduleTrigger fixedDelay(Duration delay) {
    return new FixedDelayTrigger(delay, Duration.ZERO);
  }

  /**
   * A Spring six-field cron expression ({@code second minute hour day-of-month month day-of-week},
   * macros such as {@code @daily}) in {@code zone}. Needs {@code spring-context} on the class path.
   *
   * @throws IllegalArgumentException when the expression is invalid
   */
  static ScheduleTrigger cron(String expression, ZoneId zone) {
    return new CronTrigger(expression, zone);
  }

  /** {@link #cron(String, ZoneId)} in the system default zone. */
  static ScheduleTrigger cron(String expression) {
    return new CronTrigger(expression, ZoneId.systemDefault());
  }
}
