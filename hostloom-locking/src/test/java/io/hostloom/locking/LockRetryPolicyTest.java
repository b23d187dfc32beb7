package io.hostloom.locking;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** Contract M (95–98): retry policy arithmetic. */
class LockRetryPolicyTest {
  private static Duration ms(long ms) {
    return Duration.ofMillis(ms);
  }

  @Test
  void defaultPolicyIsLinearTenRetriesFiftyMsWithJitter() {
    LockRetryPolicy p = LockRetryPolicy.defaultPolicy();
    assertThat(p.retryLimit()).isEqualTo(10);
    for (int k = 1; k <= 10; k++) {
      assertThat(p.getBaseDelay(k)).isEqualTo(ms(50L * k));
    }
    assertThat(p.maxTotalDelay()).isEqualTo(ms(3250));
    assertThat(p.description())
        .contains("linear")
        .isEqualTo("linear step 50 ms, 10 retries, jitter 50 ms");
    assertThat(p.jitter()).isEqualTo(ms(50));
  }

  @Test
  void jitterIsAddedWithinItsBound() {
    LockRetryPolicy p = LockRetryPolicy.linear(3, ms(50)).withJitter(ms(50));
    for (int i = 0; i < 1000; i++) {
      assertThat(p.getDelay(2)).isBetween(ms(100), ms(150));
    }
  }

  @Test
  void shapes() {
    assertThat(LockRetryPolicy.immediate(2).getDelay(1)).isZero();
    assertThat(LockRetryPolicy.interval(2, ms(10)).getBaseDelay(2)).isEqualTo(ms(10));
    LockRetryPolicy e = LockRetryPolicy.exponential(3, ms(10), ms(30));
    assertThat(e.getBaseDelay(1)).isEqualTo(ms(10));
    assertThat(e.getBaseDelay(2)).isEqualTo(ms(20));
    assertThat(e.getBaseDelay(3)).isEqualTo(ms(30));
    assertThat(e.maxTotalDelay()).isEqualTo(ms(60));
    assertThat(LockRetryPolicy.exponential(5, Duration.ZERO, ms(30)).getBaseDelay(4)).isZero();
    // floating point: no overflow for huge k
    assertThat(LockRetryPolicy.exponential(5, ms(1), ms(30)).getBaseDelay(10_000))
        .isEqualTo(ms(30));
  }

  @Test
  void descriptions() {
    assertThat(LockRetryPolicy.immediate(3).description()).isEqualTo("immediate, 3 retries");
    assertThat(LockRetryPolicy.interval(5, ms(40)).description())
        .isEqualTo("interval 40 ms, 5 retries");
    assertThat(LockRetryPolicy.exponential(3, ms(10), ms(30), 1.5).description())
        .isEqualTo("exponential 10 ms to 30 ms x 1.5, 3 retries");
    assertThat(LockRetryPolicy.exponential(3, ms(10), ms(30)).withJitter(ms(5)).description())
        .isEqualTo("exponential 10 ms to 30 ms x 2, 3 retries, jitter 5 ms");
  }

  @Test
  void withJitterReplacesPreviousJitter() {
    LockRetryPolicy p = LockRetryPolicy.immediate(1).withJitter(ms(5)).withJitter(ms(7));
    assertThat(p.jitter()).isEqualTo(ms(7));
    assertThat(p.maxTotalDelay()).isEqualTo(ms(7));
  }

  @Test
  void argumentErrors() {
    assertThatThrownBy(() -> LockRetryPolicy.immediate(-1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("but was -1");
    assertThatThrownBy(() -> LockRetryPolicy.interval(1, ms(-1)))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> LockRetryPolicy.linear(1, ms(-1)))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> LockRetryPolicy.exponential(1, ms(-1), ms(3)))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> LockRetryPolicy.exponential(1, ms(5), ms(3)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("max");
    assertThatThrownBy(() -> LockRetryPolicy.exponential(1, ms(1), ms(3), 0.5))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("factor");
    assertThatThrownBy(() -> LockRetryPolicy.immediate(1).withJitter(ms(-1)))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> LockRetryPolicy.immediate(1).getDelay(0))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> LockRetryPolicy.immediate(1).getBaseDelay(0))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
