package io.hostloom.scheduling;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/** Occurrences {@code delay} after each run ended; see {@link ScheduleTrigger#fixedDelay}. */
final class FixedDelayTrigger implements ScheduleTrigger {
  private final Duration delay;
  private final Duration initialDelay;

  FixedDelayTrigger(Duration delay, Duration initialDelay) {
    this.delay = Durations.positive("delay", delay);
    this.initialDelay = Durations.notNegative("initialDelay", initialDelay);
  }

  @Override
  public Optional<Instant> first(Instant now) {
    return Optional.of(Objects.requireNonNull(now, "now").plus(initialDelay));
  }

  @Override
  public Optional<Instant> next(Instant due, Instant start, Instant end) {
    Instant next = end.plus(delay);
    // a run whose end lies before its due time (a wall-clock step back) still moves forward
    return Optional.of(next.isAfter(due) ? next : due.plus(delay));
  }

  @Override
  public String toString() {
    return "fixedDelay(" + delay + ", " + initialDelay + ")";
  }
}
