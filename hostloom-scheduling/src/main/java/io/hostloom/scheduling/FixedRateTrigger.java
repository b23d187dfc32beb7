package io.hostloom.scheduling;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/** Occurrences every {@code period} apart; see {@link ScheduleTrigger#fixedRate}. */
final class FixedRateTrigger implements ScheduleTrigger {
  private final Duration period;
  private final Duration initialDelay; // null when aligned to the epoch

  private FixedRateTrigger(Duration period, Duration initialDelay) {
    this.period = Durations.positive("period", period);
    this.initialDelay = initialDelay;
  }

  static FixedRateTrigger startingAfter(Duration period, Duration initialDelay) {
    return new FixedRateTrigger(period, Durations.notNegative("initialDelay", initialDelay));
  }

  static FixedRateTrigger aligned(Duration period) {
    return new FixedRateTrigger(period, null);
  }

  @Override
  public Optional<Instant> first(Instant now) {
    Objects.requireNonNull(now, "now");
    if (initialDelay != null) {
      return Optional.of(now.plus(initialDelay));
    }
    // the first epoch-aligned instant at or after now
    long p = period.toNanos();
    long sinceEpoch = Durations.nanosSinceEpoch(now);
    long k = Math.floorDiv(sinceEpoch + p - 1, p);
    return Optional.of(Instant.EPOCH.plusNanos(k * p));
  }

  @Override
  public Optional<Instant> next(Instant due, Instant start, Instant end) {
    long p = period.toNanos();
    long overrun = Duration.between(due, end).toNanos();
    // the latest due time at or before the end (a late run, started at once), at least one period
    long periods = Math.max(1, Math.floorDiv(overrun, p));
    return Optional.of(due.plusNanos(periods * p));
  }

  @Override
  public String toString() {
    return "fixedRate(" + period + (initialDelay == null ? ", aligned" : ", " + initialDelay) + ")";
  }
}
