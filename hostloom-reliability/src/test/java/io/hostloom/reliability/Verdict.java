package io.hostloom.reliability;

import io.hostloom.testkit.HistoryChecker;
import io.hostloom.testkit.HistoryReport;
import io.hostloom.testkit.LockEvent;
import java.util.Collection;
import java.util.List;

/**
 * Both checks of a merged history: the testkit's {@link HistoryChecker} (overlapping holds, token
 * order of clearly ordered grants, malformed events) and {@link GrantOrderCheck} (token order of
 * grants in the order they were seen).
 */
record Verdict(HistoryReport history, List<String> inversions) {
  Verdict {
    inversions = List.copyOf(inversions);
  }

  static Verdict of(Collection<LockEvent> events) {
    return new Verdict(HistoryChecker.check(events), GrantOrderCheck.inversions(events));
  }

  long violations() {
    return history.violationCount() + inversions.size();
  }

  String summary() {
    return history.summary() + ", " + inversions.size() + " token inversions in grant order";
  }

  /** Fails when either check found a violation, listing the first ones. */
  void assertNone() {
    history.assertNoViolations();
    if (!inversions.isEmpty()) {
      throw new AssertionError(
          inversions.size()
              + " grants carried a smaller fencing token than a grant seen before them"
              + " (exclusion or token monotonicity broken), e.g.:\n  "
              + String.join("\n  ", inversions.subList(0, Math.min(10, inversions.size()))));
    }
  }
}
