package io.hostloom.testkit.migration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The ledger's checks, fed good and bad histories. */
class OccurrenceLedgerTest {
  @TempDir Path dir;

  @Test
  void eachOccurrenceOnceAndBothNodesPasses() {
    Path ledger = dir.resolve("good");
    OccurrenceLedger.append(ledger, 0, "old");
    OccurrenceLedger.append(ledger, 1, "new");
    OccurrenceLedger.append(ledger, 3, "old");
    OccurrenceLedger.Verdict v = OccurrenceLedger.read(ledger);
    v.assertExclusiveAndShared(List.of("old", "new"));
    assertThat(v.doubleRuns()).isEmpty();
    assertThat(v.runsOf("old")).isEqualTo(2);
  }

  @Test
  void aDoubleRunFails() {
    Path ledger = dir.resolve("twice");
    OccurrenceLedger.append(ledger, 0, "old");
    OccurrenceLedger.append(ledger, 1, "new");
    OccurrenceLedger.append(ledger, 1, "old");
    OccurrenceLedger.Verdict v = OccurrenceLedger.read(ledger);
    assertThat(v.doubleRuns()).containsExactly(1);
    assertThatThrownBy(() -> v.assertExclusiveAndShared(List.of("old", "new")))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("1=[new, old]");
  }

  @Test
  void aNodeThatNeverRanFails() {
    Path ledger = dir.resolve("one-sided");
    OccurrenceLedger.append(ledger, 0, "old");
    OccurrenceLedger.append(ledger, 1, "old");
    assertThatThrownBy(
            () -> OccurrenceLedger.read(ledger).assertExclusiveAndShared(List.of("old", "new")))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("new ran no occurrence");
  }

  @Test
  void anEmptyLedgerHasNoRuns() {
    assertThat(OccurrenceLedger.read(dir.resolve("absent")).runs()).isEmpty();
  }
}
