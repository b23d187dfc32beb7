package io.hostloom.scheduling;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import org.junit.jupiter.api.Test;

/** Trigger arithmetic: pure functions of their arguments, no clock involved. */
class ScheduleTriggerTest {
  private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
  private static final ZoneId BERLIN = ZoneId.of("Europe/Berlin");

  private static Instant at(long millis) {
    return T0.plusMillis(millis);
  }

  @Test
  void fixedRateCountsFromDueTimesAndALateRunTakesTheLatestMissedOccurrence() {
    ScheduleTrigger t = ScheduleTrigger.fixedRate(Duration.ofMillis(200));
    assertThat(t.first(T0)).contains(T0);
    assertThat(t.next(at(0), at(0), at(50))).contains(at(200));
    assertThat(t.next(at(0), at(0), at(199))).contains(at(200));
    // overran 200, 400 and 600: the 600 one starts at once, 200 and 400 are dropped
    assertThat(t.next(at(0), at(0), at(650))).contains(at(600));
    assertThat(t.next(at(0), at(0), at(600))).contains(at(600));
    // a late run's successor is the next period after it, nothing replayed
    assertThat(t.next(at(600), at(650), at(660))).contains(at(800));
  }

  @Test
  void fixedRateWithAnInitialDelay() {
    ScheduleTrigger t = ScheduleTrigger.fixedRate(Duration.ofSeconds(1), Duration.ofMillis(300));
    assertThat(t.first(T0)).contains(at(300));
    assertThat(t.next(at(300), at(300), at(310))).contains(at(1300));
  }

  @Test
  void alignedFixedRateGivesEveryProcessTheSameOccurrences() {
    ScheduleTrigger t = ScheduleTrigger.fixedRateAligned(Duration.ofMillis(200));
    assertThat(t.first(at(130))).contains(at(200));
    assertThat(t.first(at(200))).contains(at(200));
    assertThat(t.first(at(201))).contains(at(400));
    assertThat(t.next(at(200), at(201), at(250))).contains(at(400));
  }

  @Test
  void fixedDelayCountsFromTheEndOfEachRun() {
    ScheduleTrigger t = ScheduleTrigger.fixedDelay(Duration.ofMillis(200), Duration.ofMillis(50));
    assertThat(t.first(T0)).contains(at(50));
    assertThat(t.next(at(50), at(50), at(420))).contains(at(620));
    assertThat(ScheduleTrigger.fixedDelay(Duration.ofMillis(200)).first(T0)).contains(T0);
  }

  @Test
  void badArgumentsAreRejected() {
    assertThatThrownBy(() -> ScheduleTrigger.fixedRate(Duration.ZERO))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("but was PT0S");
    assertThatThrownBy(
            () -> ScheduleTrigger.fixedDelay(Duration.ofSeconds(1), Duration.ofSeconds(-1)))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> ScheduleTrigger.cron("0 0 * * *", BERLIN)) // five fields
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void cronUsesSpringsSixFieldsAndItsZone() {
    ScheduleTrigger t = ScheduleTrigger.cron("*/10 * * * * *", ZoneId.of("UTC"));
    assertThat(t.first(at(1))).contains(at(10_000));
    assertThat(t.next(at(10_000), at(10_000), at(10_500))).contains(at(20_000));
    // late: 20, 30 missed; 30 runs at once
    assertThat(t.next(at(10_000), at(10_000), at(35_000))).contains(at(30_000));

    ScheduleTrigger daily = ScheduleTrigger.cron("0 0 9 * * MON-FRI", ZoneId.of("Asia/Tokyo"));
    assertThat(daily.first(Instant.parse("2026-01-02T01:00:00Z"))) // Fri 10:00 in Tokyo
        .contains(Instant.parse("2026-01-05T00:00:00Z")); // Mon 09:00 in Tokyo
    assertThat(ScheduleTrigger.cron("@daily", ZoneId.of("UTC")).first(at(1)))
        .contains(Instant.parse("2026-01-02T00:00:00Z"));
  }

  @Test
  void cronAcrossTheSpringForwardChangeKeepsLocalTime() {
    // Berlin, 2026-03-29: 02:00 CET becomes 03:00 CEST
    ScheduleTrigger at3 = ScheduleTrigger.cron("0 0 3 * * *", BERLIN);
    Instant saturday = ZonedDateTime.of(2026, 3, 28, 3, 0, 0, 0, BERLIN).toInstant();
    Instant sunday = at3.next(saturday, saturday, saturday.plusSeconds(1)).orElseThrow();
    assertThat(sunday).isEqualTo(Instant.parse("2026-03-29T01:00:00Z"));
    assertThat(Duration.between(saturday, sunday)).isEqualTo(Duration.ofHours(23));

    // 02:30 does not exist that day: Spring's CronExpression skips the day
    ScheduleTrigger at230 = ScheduleTrigger.cron("0 30 2 * * *", BERLIN);
    Instant before = ZonedDateTime.of(2026, 3, 28, 12, 0, 0, 0, BERLIN).toInstant();
    assertThat(at230.first(before)).contains(Instant.parse("2026-03-30T00:30:00Z"));
  }

  @Test
  void cronAcrossTheFallBackChangeRunsTheRepeatedHourTwice() {
    // Berlin, 2026-10-25: 03:00 CEST becomes 02:00 CET; 02:xx happens twice
    ScheduleTrigger hourly = ScheduleTrigger.cron("0 0 * * * *", BERLIN);
    Instant first = hourly.first(Instant.parse("2026-10-24T23:30:00Z")).orElseThrow();
    Instant second = hourly.next(first, first, first).orElseThrow();
    Instant third = hourly.next(second, second, second).orElseThrow();
    assertThat(first).isEqualTo(Instant.parse("2026-10-25T00:00:00Z")); // 02:00 CEST
    assertThat(second).isEqualTo(Instant.parse("2026-10-25T01:00:00Z")); // 02:00 CET
    assertThat(third).isEqualTo(Instant.parse("2026-10-25T02:00:00Z")); // 03:00 CET
  }
}
