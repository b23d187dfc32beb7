package io.hostloom.locking;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The forms; RetrySpecTest in the starter runs every form again with Spring's durations. */
class LockRetrySpecTest {
  private static LockRetryPolicy parse(String spec) {
    return LockRetrySpec.parse(spec, Duration::parse);
  }

  @Test
  void durationsAreReadByTheCallersParser() {
    assertThat(parse("interval:1xPT2S+PT1S"))
        .isEqualTo(
            LockRetryPolicy.interval(1, Duration.ofSeconds(2)).withJitter(Duration.ofSeconds(1)));
    assertThat(parse("exponential:6xPT1S..PT10S*3"))
        .isEqualTo(
            LockRetryPolicy.exponential(6, Duration.ofSeconds(1), Duration.ofSeconds(10), 3.0));
    assertThat(parse("immediate:3")).isEqualTo(LockRetryPolicy.immediate(3));
  }

  @Test
  void aDurationTheParserRejectsNamesTheSettingAndTheValue() {
    assertThatThrownBy(() -> parse("interval:5x100ms"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("hostloom.locking.retry must be default, immediate:N")
        .hasMessageContaining("but was 'interval:5x100ms' ('100ms' is not a duration)");
  }
}
