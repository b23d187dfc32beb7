package io.hostloom.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import io.hostloom.reliability.ScheduleScenarios.Run;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The run-ledger check of {@link ScheduleScenarios} fed good and bad ledgers. */
class ScheduleLedgerCheckTest {
  @Test
  void aCleanLedgerHasNoProblems() {
    assertThat(
            ScheduleScenarios.ledgerProblems(
                List.of(new Run("a", 200, 5, 1), new Run("b", 400, 7, 2), new Run("a", 600, 9, 3))))
        .isEmpty();
  }

  @Test
  void anOccurrenceThatRanTwiceIsReported() {
    assertThat(
            ScheduleScenarios.ledgerProblems(
                List.of(new Run("a", 200, 5, 1), new Run("b", 200, 7, 2))))
        .anySatisfy(p -> assertThat(p).contains("occurrence 200 ran 2 times"));
  }

  @Test
  void aTokenThatDoesNotGrowIsReported() {
    assertThat(
            ScheduleScenarios.ledgerProblems(
                List.of(new Run("a", 200, 7, 1), new Run("b", 400, 7, 2))))
        .singleElement()
        .satisfies(p -> assertThat(p).contains("token did not grow"));
  }
}
