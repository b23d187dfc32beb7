package io.hostloom.springboot.scheduling;

/**
 * Start-up failure for a misconfigured {@link ExclusiveSchedule} method (an empty name, a minimum
 * hold longer than the lease, a lease above {@code hostloom.locking.max-lease}, a non-{@code void}
 * method, an unknown leader role); Spring Boot prints it through {@link
 * ExclusiveScheduleFailureAnalyzer}.
 */
public final class ExclusiveScheduleConfigurationException extends IllegalStateException {
  private static final long serialVersionUID = 1L;

  private final String method;

  ExclusiveScheduleConfigurationException(String method, String problem, Throwable cause) {
    super("@ExclusiveSchedule on " + method + " is misconfigured: " + problem, cause);
    this.method = method;
  }

  /** The annotated method, as {@code <class>.<method>}. */
  public String method() {
    return method;
  }
}
