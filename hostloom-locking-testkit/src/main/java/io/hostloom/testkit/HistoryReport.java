package io.hostloom.testkit;

import java.util.List;
import java.util.Objects;

/**
 * What {@link HistoryChecker} found.
 *
 * @param events events checked
 * @param holds distinct holds (key, holder, token) found
 * @param keys distinct keys
 * @param violationCount all violations found
 * @param violations the first {@link HistoryChecker#MAX_DESCRIBED} violations, described
 */
public record HistoryReport(
    long events, long holds, long keys, long violationCount, List<Violation> violations) {

  /** The kinds of violations. */
  public enum Kind {
    /** Two holds of one key overlapped while both leases were valid. */
    OVERLAP,
    /** A later grant of a key got a fencing token not larger than an earlier one. */
    TOKEN_ORDER,
    /** Events that do not form holds (EXIT or EXTEND without ENTER). */
    MALFORMED
  }

  /** One violation. */
  public record Violation(Kind kind, String key, String description) {
    public Violation {
      Objects.requireNonNull(kind, "kind");
      Objects.requireNonNull(key, "key");
      Objects.requireNonNull(description, "description");
    }

    @Override
    public String toString() {
      return kind + " on key '" + key + "': " + description;
    }
  }

  public HistoryReport {
    violations = List.copyOf(violations);
  }

  /** Whether no violation was found. */
  public boolean ok() {
    return violationCount == 0;
  }

  /**
   * Fails when a violation was found.
   *
   * @throws AssertionError listing the described violations
   */
  public void assertNoViolations() {
    if (!ok()) {
      StringBuilder sb = new StringBuilder(summary());
      for (Violation v : violations) {
        sb.append("\n  ").append(v);
      }
      throw new AssertionError(sb.toString());
    }
  }

  /** One line: events, holds, keys, violations. */
  public String summary() {
    return events
        + " events, "
        + holds
        + " holds on "
        + keys
        + " keys, "
        + violationCount
        + " violations";
  }
}
