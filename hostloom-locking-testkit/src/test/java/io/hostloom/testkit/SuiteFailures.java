package io.hostloom.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import java.util.Set;
import java.util.TreeSet;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.engine.support.descriptor.MethodSource;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Events;

/** Runs a suite subclass in a nested JUnit engine, for the suites' self-tests. */
public final class SuiteFailures {
  private SuiteFailures() {}

  /**
   * Runs {@code suite} and returns the names of its test methods that did not pass.
   *
   * @param minimumTests fewer tests started than this fails the caller (a suite that ran nothing)
   */
  public static Set<String> of(Class<?> suite, int minimumTests) {
    Events tests =
        EngineTestKit.engine("junit-jupiter").selectors(selectClass(suite)).execute().testEvents();
    Set<String> failed = new TreeSet<>();
    tests.finished().stream()
        .filter(
            e ->
                e.getRequiredPayload(TestExecutionResult.class).getStatus()
                    != TestExecutionResult.Status.SUCCESSFUL)
        .forEach(
            e ->
                e.getTestDescriptor()
                    .getSource()
                    .filter(MethodSource.class::isInstance)
                    .map(s -> ((MethodSource) s).getMethodName())
                    .ifPresent(failed::add));
    assertThat(tests.started().count()).as("tests run").isGreaterThanOrEqualTo(minimumTests);
    return failed;
  }
}
