package io.hostloom.locking.spi.support;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class LeaseRoundingTest {
  private static final Duration SUB_MILLI = Duration.ofNanos(1);
  private static final Duration ONE_AND_A_BIT = Duration.ofNanos(1_000_001);

  @Test
  void millisRoundUpNeverDownToZero() {
    assertThat(LeaseRounding.ceilMillis(SUB_MILLI)).isEqualTo(1);
    assertThat(LeaseRounding.ceilMillis(Duration.ofNanos(999_999))).isEqualTo(1);
    assertThat(LeaseRounding.ceilMillis(Duration.ofMillis(1))).isEqualTo(1);
    assertThat(LeaseRounding.ceilMillis(ONE_AND_A_BIT)).isEqualTo(2);
    assertThat(LeaseRounding.ceilMillis(Duration.ofMillis(1000).plusNanos(500_000)))
        .isEqualTo(1001);
  }

  @Test
  void secondsRoundUp() {
    assertThat(LeaseRounding.ceilSeconds(SUB_MILLI)).isEqualTo(1);
    assertThat(LeaseRounding.ceilSeconds(Duration.ofSeconds(1))).isEqualTo(1);
    assertThat(LeaseRounding.ceilSeconds(Duration.ofMillis(1001))).isEqualTo(2);
  }

  @Test
  void nanosAreAtLeastOneMillisecond() {
    assertThat(LeaseRounding.nanos(SUB_MILLI)).isEqualTo(1_000_000);
    assertThat(LeaseRounding.nanos(ONE_AND_A_BIT)).isEqualTo(1_000_001);
  }

  @Test
  void toAResolution() {
    Duration second = Duration.ofSeconds(1);
    assertThat(LeaseRounding.ceil(SUB_MILLI, second)).isEqualTo(second);
    assertThat(LeaseRounding.ceil(Duration.ofMillis(1001), second))
        .isEqualTo(Duration.ofSeconds(2));
    assertThat(LeaseRounding.ceil(Duration.ofSeconds(3), second)).isEqualTo(Duration.ofSeconds(3));
    // finer than the SPI's minimum counts as 1 ms
    assertThat(LeaseRounding.ceil(SUB_MILLI, Duration.ofNanos(1))).isEqualTo(Duration.ofMillis(1));
    assertThat(LeaseRounding.ceil(ONE_AND_A_BIT, Duration.ofMillis(1)))
        .isEqualTo(Duration.ofMillis(2));
  }

  @Test
  void hugeLeasesSaturateWithoutOverflow() {
    Duration huge = Duration.ofSeconds(Long.MAX_VALUE, 999_999_999);
    assertThat(LeaseRounding.ceilMillis(huge)).isEqualTo(LeaseRounding.FOREVER);
    assertThat(LeaseRounding.nanos(huge)).isEqualTo(LeaseRounding.FOREVER);
    assertThat(LeaseRounding.ceilSeconds(huge)).isEqualTo(LeaseRounding.FOREVER);
    assertThat(LeaseRounding.ceil(huge, Duration.ofSeconds(1)))
        .isEqualTo(Duration.ofMillis(LeaseRounding.FOREVER));
    long now = System.nanoTime();
    assertThat(now + LeaseRounding.nanos(huge) - now).isPositive(); // room to add "now"
  }
}
