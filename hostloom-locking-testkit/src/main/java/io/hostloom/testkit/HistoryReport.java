package io.hostloom.testkit;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.StringJoiner;

/**
 * What {@link HistoryChecker} found.
 *
 * @param events events checked
 * @param holds distinct holds (key, holder, token) found
 * @param keys distinct keys
 * @param violationCount all violations found
 * @param violations the first {@link HistoryChecker#MAX_DESCRIBED} violations, described
 * @param violationsByKind all violations found, counted per kind (kinds without any are absent)
 */
public record HistoryReport(
    long events,
    long holds,
    long keys,
    long violationCount,
    List<Violation> violations,
    Map<Kind, Long> violationsByKind) {

  /** The kinds of violations. */
  public enum Kind {
    /** Two holds of one key overlapped while both leases were valid. */
    OVERLAP,
    /**
     * A grant requested after another grant of the key was seen got a fencing token not larger than
     * that grant's (or two holds shared a token).
     */
    TOKEN_ORDER,
    /**
     * Token inversion in grant order: a grant seen after another grant of the key, heard within its
     * lease and relied upon, got a smaller token, though it was requested before the other was seen
     * (exclusion or token monotonicity broken; see {@link HistoryChecker}).
     */
    GRANT_ORDER,
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
    violationsByKind = Map.copyOf(violationsByKind);
  }

  /** All violations of {@code kind} found. */
  public long violationCount(Kind kind) {
    return violationsByKind.getOrDefault(kind, 0L);
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

  /** One line: events, holds, keys, violations (per kind when there are any). */
  public String summary() {
    StringBuilder sb =
        new StringBuilder()
            .append(events)
            .append(" events, ")
            .append(holds)
            .append(" holds on ")
            .append(keys)
            .append(" keys, ")
            .append(violationCount)
            .append(" violations");
    if (violationCount > 0) {
      StringJoiner kinds = new StringJoiner(", ", " (", ")");
      for (Kind k : Kind.values()) {
        if (violationCount(k) > 0) {
          kinds.add(violationCount(k) + " " + k);
        }
      }
      sb.append(kinds);
    }
    return sb.toString();
  }
}
