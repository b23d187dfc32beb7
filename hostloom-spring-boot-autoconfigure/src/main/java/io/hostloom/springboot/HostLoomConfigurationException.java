package io.hostloom.springboot;

import java.util.List;

/**
 * Start-up failure for invalid {@code hostloom.*} settings: one exception listing every problem,
 * each naming its property. Spring Boot prints it through {@link
 * HostLoomConfigurationFailureAnalyzer}.
 */
public final class HostLoomConfigurationException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final List<String> problems;

  private HostLoomConfigurationException(List<String> problems) {
    super(message(problems), null, false, false);
    this.problems = List.copyOf(problems);
  }

  /**
   * @param problems at least one problem, each a sentence naming its property
   */
  public static HostLoomConfigurationException of(List<String> problems) {
    if (problems.isEmpty()) {
      throw new IllegalArgumentException("problems must not be empty");
    }
    return new HostLoomConfigurationException(problems);
  }

  /** Every problem found, in a stable order. */
  public List<String> problems() {
    return problems;
  }

  private static String message(List<String> problems) {
    StringBuilder sb =
        new StringBuilder("Invalid HostLoom configuration (")
            .append(problems.size())
            .append(problems.size() == 1 ? " problem):" : " problems):");
    for (String p : problems) {
      sb.append("\n  - ").append(p);
    }
    return sb.toString();
  }
}
