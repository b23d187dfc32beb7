package io.hostloom.springboot;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * Turns {@link HostLoomConfigurationException} into Spring Boot's "APPLICATION FAILED TO START".
 */
public final class HostLoomConfigurationFailureAnalyzer
    extends AbstractFailureAnalyzer<HostLoomConfigurationException> {

  @Override
  protected FailureAnalysis analyze(Throwable rootFailure, HostLoomConfigurationException cause) {
    return new FailureAnalysis(
        cause.getMessage(),
        "Fix the hostloom.* settings listed above (application.yml, environment variables or"
            + " command-line arguments). The hostloom-spring-boot-starter README lists every"
            + " setting.",
        cause);
  }
}
