package io.hostloom.locking;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * Owner tokens carry 128 random bits per acquisition: no position of the token is fixed per lock
 * instance or derivable from a counter, so a cloned JVM or a second lock cannot repeat them.
 */
class OwnerTokenTest {
  private static final int SAMPLES = 64;

  @Test
  void everyHexDigitOfTheTokenIsRandomPerAcquisition() {
    ComposedLock lock = new KernelFixture().lock();
    List<String> owners = IntStream.range(0, SAMPLES).mapToObj(i -> lock.newOwner()).toList();

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
}
