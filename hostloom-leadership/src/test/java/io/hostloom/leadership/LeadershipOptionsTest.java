package io.hostloom.leadership;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.hostloom.locking.DistributedLock;
import io.hostloom.locking.LockingOptions;
import io.hostloom.locking.memory.InMemoryLockBackend;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class LeadershipOptionsTest {

  @Test
  void defaultsAreFifteenFiveTwoAndOneSeconds() {
    LeadershipOptions d = LeadershipOptions.DEFAULTS;
    assertThat(d.lease()).isEqualTo(Duration.ofSeconds(15));
    assertThat(d.renewInterval()).isEqualTo(Duration.ofSeconds(5));
    assertThat(d.retryInterval()).isEqualTo(Duration.ofSeconds(2));
    assertThat(d.jitter()).isEqualTo(Duration.ofSeconds(1));
  }

  @Test
  void everyBadKeyIsNamedAtOnce() {
    assertThatThrownBy(
            () ->
                LeadershipOptions.builder()
                    .lease(Duration.ZERO)
                    .renewInterval(Duration.ofSeconds(-1))
                    .retryInterval(Duration.ZERO)
                    .jitter(Duration.ofMillis(-1))
                    .build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("hostloom.leadership.lease must be positive, but was PT0S")
        .hasMessageContaining("hostloom.leadership.renew-interval must be positive")
        .hasMessageContaining("hostloom.leadership.retry-interval must be positive")
        .hasMessageContaining("hostloom.leadership.jitter must not be negative, but was PT-0.001S");
  }

  @Test
  void theRenewIntervalIsAtMostHalfTheLeaseUnderTheGivenPrefix() {
    LeadershipOptions.Builder b =
        LeadershipOptions.builder()
            .lease(Duration.ofSeconds(10))
            .renewInterval(Duration.ofSeconds(6));
    assertThat(b.validate("hostloom.leadership.roles.billing."))
        .containsExactly(
            "hostloom.leadership.roles.billing.renew-interval must be at most half of"
                + " hostloom.leadership.roles.billing.lease (PT10S), but was PT6S");
    assertThat(b.renewInterval(Duration.ofSeconds(5)).validate("")).isEmpty();
  }

  @Test
  void aLeaseLongerThanTheLocksMaxLeaseIsRefusedNamingBothKeys() {
    try (DistributedLock lock =
        DistributedLock.builder(
                LockingOptions.builder()
                    .namespace("app")
                    .defaultLease(Duration.ofSeconds(5))
                    .maxLease(Duration.ofSeconds(10))
                    .build(),
                new InMemoryLockBackend())
            .build()) {
      LeadershipOptions tooLong = LeadershipOptions.builder().lease(Duration.ofSeconds(11)).build();
      assertThatThrownBy(() -> LeaderElector.builder(lock, "r").options(tooLong).build())
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("hostloom.leadership.lease (PT11S)")
          .hasMessageContaining("hostloom.locking.max-lease (PT10S)");
      LeadershipOptions fits = LeadershipOptions.builder().lease(Duration.ofSeconds(10)).build();
      assertThat(LeaderElector.builder(lock, "r").options(fits).build().options()).isEqualTo(fits);
    }
  }

  @Test
  void toBuilderCopiesEveryField() {
    LeadershipOptions o =
        LeadershipOptions.builder()
            .lease(Duration.ofSeconds(9))
            .renewInterval(Duration.ofSeconds(3))
            .retryInterval(Duration.ofSeconds(4))
            .jitter(Duration.ofMillis(7))
            .build();
    assertThat(o.toBuilder().build()).isEqualTo(o).hasSameHashCodeAs(o);
    assertThat(o).isNotEqualTo(LeadershipOptions.DEFAULTS);
  }
}
