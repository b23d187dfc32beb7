package io.hostloom.springboot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.hostloom.locking.LockRetryPolicy;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class RetrySpecTest {
  private static Duration ms(long n) {
    return Duration.ofMillis(n);
  }

  @Test
  void everyFormParsesToThePolicyItNames() {
    assertThat(RetrySpec.parse("default")).isEqualTo(LockRetryPolicy.defaultPolicy());
    assertThat(RetrySpec.parse("linear:10x50ms+50ms")).isEqualTo(LockRetryPolicy.defaultPolicy());
    assertThat(RetrySpec.parse("immediate:3")).isEqualTo(LockRetryPolicy.immediate(3));
    assertThat(RetrySpec.parse("interval:5x100ms")).isEqualTo(LockRetryPolicy.interval(5, ms(100)));
    assertThat(RetrySpec.parse("Linear:2x1s")).isEqualTo(LockRetryPolicy.linear(2, ms(1000)));
    assertThat(RetrySpec.parse("exponential:6x10ms..1s"))
        .isEqualTo(LockRetryPolicy.exponential(6, ms(10), ms(1000)));
    assertThat(RetrySpec.parse("exponential:6x10ms..1s*3"))
        .isEqualTo(LockRetryPolicy.exponential(6, ms(10), ms(1000), 3.0));
    assertThat(RetrySpec.parse(" interval:1xPT2S+PT1S "))
        .isEqualTo(LockRetryPolicy.interval(1, ms(2000)).withJitter(ms(1000)));
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "",
        "linear",
        "linear:10",
        "linear:x50ms",
        "linear:10x",
        "linear:10x50parsecs",
        "fibonacci:3x1ms",
        "exponential:3x1s..10ms",
        "exponential:3x1ms",
        "immediate:3x1ms",
        "default:3",
        "linear:10x-5ms",
        "linear:10x50ms+"
      })
  void invalidSpecsFailWithTheFormsAndTheValue(String spec) {
    assertThatThrownBy(() -> RetrySpec.parse(spec))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("hostloom.locking.retry must be default, immediate:N")
        .hasMessageContaining("but was '" + spec + "'");
  }
}
