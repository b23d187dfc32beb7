package io.hostloom.wopihost.security;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class ProofReplayCacheTest {
  static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

  @Test
  void aProofIsNewOnceThenSeenUntilItsTimestampIsTooOld() {
    ProofReplayCache cache = new ProofReplayCache();
    long ticks = ProofKeys.toTicks(T0);
    assertThat(cache.firstUse("t", "https://h/wopi/files/a", ticks, T0)).isTrue();
    assertThat(cache.firstUse("t", "https://h/wopi/files/a", ticks, T0.plusSeconds(60))).isFalse();
    Instant lastValid = T0.plus(ProofKeys.MAX_AGE).minusMillis(1);
    assertThat(cache.firstUse("t", "https://h/wopi/files/a", ticks, lastValid)).isFalse();
    // other token, URL or timestamp: other proofs
    assertThat(cache.firstUse("u", "https://h/wopi/files/a", ticks, T0)).isTrue();
    assertThat(cache.firstUse("t", "https://h/wopi/files/b", ticks, T0)).isTrue();
    assertThat(cache.firstUse("t", "https://h/wopi/files/a", ticks + 1, T0)).isTrue();
  }

  @Test
  void aProofDatedAheadIsRememberedUntilItsOwnTimestampIsTooOld() {
    ProofReplayCache cache = new ProofReplayCache();
    long ahead = ProofKeys.toTicks(T0.plus(ProofKeys.MAX_CLOCK_SKEW));
    assertThat(cache.firstUse("t", "u", ahead, T0)).isTrue();
    Instant later = T0.plus(ProofKeys.MAX_AGE).plus(Duration.ofMinutes(1)); // T0's window is over
    assertThat(cache.firstUse("t", "u", ahead, later)).isFalse();
  }

  @Test
  void whenFullOfLiveProofsNewOnesAreRefusedAndExpiredOnesMakeRoom() {
    ProofReplayCache cache = new ProofReplayCache(2);
    assertThat(cache.firstUse("t", "u", ProofKeys.toTicks(T0), T0)).isTrue();
    assertThat(cache.firstUse("t", "u", ProofKeys.toTicks(T0.plusSeconds(1)), T0)).isTrue();
    assertThat(cache.firstUse("t", "u", ProofKeys.toTicks(T0.plusSeconds(2)), T0)).isFalse();
    Instant expired = T0.plus(ProofKeys.MAX_AGE).plusSeconds(5);
    assertThat(cache.firstUse("t", "u", ProofKeys.toTicks(expired), expired)).isTrue();
  }
}
