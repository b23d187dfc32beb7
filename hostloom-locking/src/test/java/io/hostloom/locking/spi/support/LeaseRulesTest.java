package io.hostloom.locking.spi.support;

import static io.hostloom.locking.spi.support.LeaseDecision.EXTEND_SAME_TOKEN;
import static io.hostloom.locking.spi.support.LeaseDecision.GRANT_NEW_TOKEN;
import static io.hostloom.locking.spi.support.LeaseDecision.HELD;
import static io.hostloom.locking.spi.support.LeaseDecision.REFUSED_ABSENT;
import static io.hostloom.locking.spi.support.LeaseDecision.REFUSED_OTHER_OWNER;
import static io.hostloom.locking.spi.support.LeaseDecision.RELEASE;
import static io.hostloom.locking.spi.support.LeaseDecision.REPLACE_NEW_TOKEN;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class LeaseRulesTest {

  /** The whole table: (operation, current record) -> decision, by the backend's now = 100. */
  @ParameterizedTest(name = "{0} on {1}: {2}")
  @CsvSource({
    "ACQUIRE, absent, GRANT_NEW_TOKEN",
    "ACQUIRE, expired, GRANT_NEW_TOKEN",
    "ACQUIRE, own, EXTEND_SAME_TOKEN",
    "ACQUIRE, other, HELD",
    "EXTEND, absent, REFUSED_ABSENT",
    "EXTEND, expired, REFUSED_ABSENT",
    "EXTEND, own, EXTEND_SAME_TOKEN",
    "EXTEND, other, REFUSED_OTHER_OWNER",
    "RELEASE, absent, REFUSED_ABSENT",
    "RELEASE, expired, REFUSED_ABSENT",
    "RELEASE, own, RELEASE",
    "RELEASE, other, REFUSED_OTHER_OWNER",
    "REPLACE, absent, REFUSED_ABSENT",
    "REPLACE, expired, REFUSED_ABSENT",
    "REPLACE, own, REPLACE_NEW_TOKEN",
    "REPLACE, other, REFUSED_OTHER_OWNER",
    "READ, absent, REFUSED_ABSENT",
    "READ, expired, REFUSED_ABSENT",
    "READ, own, HELD",
    "READ, other, HELD",
  })
  void decisionTable(LeaseOperation op, String current, LeaseDecision expected) {
    long now = 100;
    LeaseDecision d =
        switch (current) {
          case "absent" -> LeaseRules.decide(op, null, 0, now, "me");
          case "expired" -> LeaseRules.decide(op, "me", now, now, "me"); // expiry == now: expired
          case "own" -> LeaseRules.decide(op, "me", now + 1, now, "me");
          default -> LeaseRules.decide(op, "you", now + 1, now, "me");
        };
    assertThat(d).isEqualTo(expected);
  }

  @Test
  void ownersCompareExactly() {
    assertThat(LeaseRules.decide(LeaseOperation.RELEASE, "Me", "me"))
        .isEqualTo(REFUSED_OTHER_OWNER);
    assertThat(LeaseRules.decide(LeaseOperation.RELEASE, "me ", "me"))
        .isEqualTo(REFUSED_OTHER_OWNER);
  }

  @Test
  void livenessIsADifferenceSoATickerMayWrap() {
    assertThat(LeaseRules.live(Long.MIN_VALUE + 5, Long.MAX_VALUE - 5)).isTrue();
    assertThat(LeaseRules.live(Long.MAX_VALUE - 5, Long.MIN_VALUE + 5)).isFalse();
    assertThat(LeaseRules.live(10, 10)).isFalse();
  }

  @Test
  void onlyChangesWrite() {
    assertThat(GRANT_NEW_TOKEN.writes()).isTrue();
    assertThat(EXTEND_SAME_TOKEN.writes()).isTrue();
    assertThat(RELEASE.writes()).isTrue();
    assertThat(REPLACE_NEW_TOKEN.writes()).isTrue();
    assertThat(HELD.writes()).isFalse();
    assertThat(REFUSED_ABSENT.writes()).isFalse();
    assertThat(REFUSED_OTHER_OWNER.writes()).isFalse();
  }
}
