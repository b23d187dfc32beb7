package io.hostloom.scheduling;

import java.time.Instant;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.util.Objects;
import java.util.Optional;
import org.springframework.scheduling.support.CronExpression;

/**
 * Occurrences of a Spring six-field cron expression in a time zone, parsed and stepped by Spring's
 * {@link CronExpression} (spring-context, an optional dependency of this module): the same syntax,
 * macros and daylight-saving rules as {@code @Scheduled(cron = ..., zone = ...)}.
 */
final class CronTrigger implements ScheduleTrigger {
  // a late run over a long outage skips at most this many missed occurrences one by one
  private static final int MAX_SKIPPED = 100_000;

  private final String expression;
  private final ZoneId zone;
  private final CronExpression cron;

  CronTrigger(String expression, ZoneId zone) {
    this.expression = Objects.requireNonNull(expression, "expression");
    this.zone = Objects.requireNonNull(zone, "zone");
    this.cron = CronExpression.parse(expression);
  }

  @Override
  public Optional<Instant> first(Instant now) {
    return after(Objects.requireNonNull(now, "now"));
  }

  @Override
  public Optional<Instant> next(Instant due, Instant start, Instant end) {
    Optional<Instant> next = after(due);
    if (next.isEmpty() || next.get().isAfter(end)) {
      return next;
    }
    // late: the latest occurrence at or before the end runs at once, the earlier ones are dropped
    Instant late = next.get();
    for (int i = 0; i < MAX_SKIPPED; i++) {
      Optional<Instant> n = after(late);
      if (n.isEmpty() || n.get().isAfter(end)) {
        return Optional.of(late);
      }
      late = n.get();
    }
    return after(end);
  }

  private Optional<Instant> after(Instant t) {
    ZonedDateTime next = cron.next(ZonedDateTime.ofInstant(t, zone));
    return Optional.ofNullable(next).map(ZonedDateTime::toInstant);
  }

  @Override
  public String toString() {
    return "cron(" + expression + ", " + zone + ")";
  }
}
