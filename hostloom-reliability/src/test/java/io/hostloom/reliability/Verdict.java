package io.hostloom.reliability;

import io.hostloom.testkit.HistoryChecker;
import io.hostloom.testkit.HistoryReport;
import io.hostloom.testkit.LockEvent;
import java.util.Collection;

/**
 * The check of a merged history: the testkit's {@link HistoryChecker} (overlapping holds, token
 * order of clearly ordered grants, token inversions in grant order, malformed events), with the
 * grant-order count in the summary, since that rule is the one that caught PostgreSQL.
 */
record Verdict(HistoryReport history) {
  static Verdict of(Collection<LockEvent> events) {
    return new Verdict(HistoryChecker.check(events));
  }

  long violations() {
    return history.violationCount();
  }

  String summary() {
    return history.summary()
        + ", "
        + history.violationCount(HistoryReport.Kind.GRANT_ORDER)
        + " token inversions in grant order";
  }

  /** Fails when a violation was found, listing the first ones. */
  void assertNone() {
    history.assertNoViolations();
  }
}
