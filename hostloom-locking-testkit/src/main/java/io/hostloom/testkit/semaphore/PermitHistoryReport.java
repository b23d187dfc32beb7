package io.hostloom.testkit.semaphore;

import io.hostloom.testkit.HistoryReport;
import java.util.List;
import java.util.Objects;

/**
 * What {@link PermitHistoryChecker} found.
 *
 * @param permits the permit count the history was checked against
 * @param holds the permit holds found
 * @param maxHeld the most permits certainly held at one instant
 * @param violations instants at which more than {@code permits} were held (each excursion once)
 * @param described the first {@link PermitHistoryChecker#MAX_DESCRIBED} violations, described
 * @param slots the per-slot report of {@link io.hostloom.testkit.HistoryChecker} (exclusion and
 *     fencing-token order of each slot key, malformed events)
 */
public record PermitHistoryReport(
    int permits,
    int holds,
    int maxHeld,
    long violations,
    List<String> described,
    HistoryReport slots) {
  public PermitHistoryReport {
    described = List.copyOf(described);
    Objects.requireNonNull(slots, "slots");
  }

  /** No permit-count violation and a clean per-slot report. */
  public boolean ok() {
    return violations == 0 && slots.ok();
  }

  /**
   * Throws an {@link AssertionError} listing what was found.
   *
   * @throws AssertionError unless {@link #ok()}
   */
  public void assertNoViolations() {
    if (!ok()) {
      throw new AssertionError(summary());
    }
  }

  /** One paragraph for test output. */
  public String summary() {
    StringBuilder s =
        new StringBuilder()
            .append(holds)
            .append(" permit holds, at most ")
            .append(maxHeld)
            .append(" of ")
            .append(permits)
            .append(" held at once, ")
            .append(violations)
            .append(" permit-count violations");
    for (String d : described) {
      s.append("\n  COUNT ").append(d);
    }
    s.append("\nslots: ").append(slots.summary());
    return s.toString();
  }
}
