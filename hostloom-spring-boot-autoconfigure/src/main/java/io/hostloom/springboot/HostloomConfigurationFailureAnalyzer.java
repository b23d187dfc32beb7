package io.hostloom.springboot;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * Turns {@link HostloomConfigurationException} into Spring Boot's "APPLICATION FAILED TO START".
 */
public final class HostloomConfigurationFailureAnalyzer
    extends AbstractFailureAnalyzer<HostloomConfigurationException> {

  @Override
  protected FailureAnalysis analyze(Throwable rootFailure, HostloomConfigurationException cause) {
    return new FailureAnalysis(
        cause.getMessage(),
        "Fix the hostloom.* settings listed above (application.yml, environment variables or"
            + " command-line arguments). The hostloom-spring-boot-starter README lists every"
            + " setting.",
        cause);
  }
}
