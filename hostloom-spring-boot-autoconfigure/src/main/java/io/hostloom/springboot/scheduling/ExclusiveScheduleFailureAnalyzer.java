package io.hostloom.springboot.scheduling;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * Turns {@link ExclusiveScheduleConfigurationException} into Spring Boot's "APPLICATION FAILED TO
 * START" report instead of a stack trace.
 */
public final class ExclusiveScheduleFailureAnalyzer
    extends AbstractFailureAnalyzer<ExclusiveScheduleConfigurationException> {

  @Override
  protected FailureAnalysis analyze(
      Throwable rootFailure, ExclusiveScheduleConfigurationException cause) {
    return new FailureAnalysis(
        cause.getMessage(),
        "Fix the @ExclusiveSchedule attributes of "
            + cause.method()
            + " or the properties its ${...} placeholders name. The hostloom-scheduling README"
            + " lists every attribute and its rule.",
        cause);
  }
}
