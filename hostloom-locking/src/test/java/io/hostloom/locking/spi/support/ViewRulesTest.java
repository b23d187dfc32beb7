package io.hostloom.locking.spi.support;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/**
 * Each view's rules call their own half of the key state: a read view never touches the writer, a
 * write view never a reader, a permit view grants up to its count.
 */
class ViewRulesTest {
  private static final long LEASE = 1_000_000_000L;

  @Test
  void countsMustBePositive() {
    assertThatThrownBy(() -> ViewRules.permits(0)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> ViewRules.reads(0)).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void thePermitViewGrantsUpToItsCount() {
    ViewRules<PermitEntries> rules = ViewRules.permits(2);
    PermitEntries s = PermitEntries.empty();
    s = rules.acquire().decide(s, "a", "2", 0, LEASE, 1).next();
    s = rules.acquire().decide(s, "b", "2", 0, LEASE, 1).next();
    assertThat(rules.acquire().decide(s, "c", "2", 0, LEASE, 1).outcome().granted()).isFalse();
    assertThat(rules.release().decide(s, "a", 0).outcome().released()).isTrue();
    assertThat(rules.read().at(s, 0)).isPresent();
  }

  @Test
  void theReadAndWriteViewsEachKeepToTheirOwnEntries() {
    ViewRules<ReadWriteEntries> reads = ViewRules.reads(4);
    ViewRules<ReadWriteEntries> writes = ViewRules.writes();
    ReadWriteEntries s =
        reads.acquire().decide(ReadWriteEntries.empty(), "r", "", 0, LEASE, 1).next();
    assertThat(writes.read().at(s, 0)).as("no writer").isEmpty();
    assertThat(reads.read().at(s, 0)).hasValueSatisfying(r -> assertThat(r.owner()).isEqualTo("r"));
    assertThat(writes.extend().decide(s, "r", 0, LEASE).outcome().extended())
        .as("the write view does not extend a reader")
        .isFalse();
    assertThat(writes.release().decide(s, "r", 0).outcome().released()).isFalse();
    s = writes.acquire().decide(s, "w", "", 0, LEASE, 1).next(); // waits for the reader
    assertThat(writes.read().at(s, 0))
        .hasValueSatisfying(r -> assertThat(r.fencingToken()).isZero());
    assertThat(reads.acquire().decide(s, "r2", "", 0, LEASE, 1).outcome().granted())
        .as("writer preference")
        .isFalse();
    assertThat(reads.extend().decide(s, "w", 0, LEASE).outcome().extended()).isFalse();
    assertThat(reads.release().decide(s, "r", 0).outcome().released()).isTrue();
  }
}
