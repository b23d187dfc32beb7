package io.hostloom.locking;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * Owner tokens carry 128 unpredictable bits per acquisition: no position of the token is fixed per
 * lock instance (the counter is inside the AES block, never in the token), and two locks' tokens
 * differ.
 */
class OwnerTokenTest {
  private static final int SAMPLES = 64;

  @Test
  void everyHexDigitOfTheTokenIsRandomPerAcquisition() {
    OwnerTokens tokens = new OwnerTokens();
    List<String> owners = IntStream.range(0, SAMPLES).mapToObj(i -> tokens.next()).toList();

    assertThat(owners).allSatisfy(o -> assertThat(o).matches("[0-9a-f]{32}"));
    assertThat(new HashSet<>(owners)).hasSize(SAMPLES);
    // A per-lock prefix or a counter fixes some digits across 64 tokens; 128 random bits leave
    // every one of the 32 digits varying (all 64 equal by chance: 16^-63 per digit).
    for (int i = 0; i < 32; i++) {
      int at = i;
      Set<Character> digits = new HashSet<>();
      owners.forEach(o -> digits.add(o.charAt(at)));
      assertThat(digits)
          .as("values of hex digit %d over %d tokens", at, SAMPLES)
          .hasSizeGreaterThan(1);
    }
  }

  @Test
  void twoLocksMintDifferentTokens() {
    OwnerTokens a = new OwnerTokens();
    OwnerTokens b = new OwnerTokens();
    Set<String> all = new HashSet<>();
    for (int i = 0; i < SAMPLES; i++) {
      all.add(a.next());
      all.add(b.next());
    }
    assertThat(all).hasSize(2 * SAMPLES);
  }
}
