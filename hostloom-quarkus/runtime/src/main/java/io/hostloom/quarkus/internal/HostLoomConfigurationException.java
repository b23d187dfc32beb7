package io.hostloom.quarkus.internal;

import java.util.List;

/** A {@code hostloom.*} setting the extension cannot start with; the message names it. */
public final class HostLoomConfigurationException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private HostLoomConfigurationException(String message) {
    super(message, null, false, false);
  }

  /** One message listing every problem, one a line. */
  public static HostLoomConfigurationException of(List<String> problems) {
    return new HostLoomConfigurationException(
        "HostLoom cannot start: "
            + (problems.size() == 1 ? problems.get(0) : "\n - " + String.join("\n - ", problems)));
  }
}
