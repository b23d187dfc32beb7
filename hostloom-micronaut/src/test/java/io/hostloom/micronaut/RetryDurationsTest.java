package io.hostloom.micronaut;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.hostloom.locking.LockRetryPolicy;
import io.hostloom.locking.LockRetrySpec;
import io.micronaut.context.ApplicationContext;
import java.time.Duration;
import java.util.function.Function;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** hostloom.locking.retry's durations are read in Micronaut's forms. */
class RetryDurationsTest {
  private static ApplicationContext context;
  private static Function<String, Duration> durations;

  @BeforeAll
  static void start() {
    context = ApplicationContext.run();
    durations = HostLoomFactory.durations(context.getConversionService());
  }

  @AfterAll
  static void stop() {
    context.close();
  }

  @Test
  void micronautsDurationFormsReadInEveryPosition() {
    assertThat(LockRetrySpec.parse("linear:10x50ms+50ms", durations))
        .isEqualTo(LockRetryPolicy.defaultPolicy());
    assertThat(LockRetrySpec.parse("exponential:3x10ms..2s*3", durations))
        .isEqualTo(
            LockRetryPolicy.exponential(3, Duration.ofMillis(10), Duration.ofSeconds(2), 3.0));
    assertThat(LockRetrySpec.parse("interval:2x1m", durations))
        .isEqualTo(LockRetryPolicy.interval(2, Duration.ofMinutes(1)));
  }

  @Test
  void aBadDurationNamesTheSetting() {
    assertThatThrownBy(() -> LockRetrySpec.parse("linear:10x5parsecs", durations))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("hostloom.locking.retry must be")
        .hasMessageContaining("but was 'linear:10x5parsecs'");
  }
}
