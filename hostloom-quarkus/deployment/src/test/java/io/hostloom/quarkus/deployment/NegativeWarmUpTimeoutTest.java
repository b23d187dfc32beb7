package io.hostloom.quarkus.deployment;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarkus.test.QuarkusUnitTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A negative hostloom.warm-up.timeout fails start-up, listed with the locking settings' problems.
 */
class NegativeWarmUpTimeoutTest {
  @RegisterExtension
  static final QuarkusUnitTest APP =
      new QuarkusUnitTest()
          .overrideConfigKey("hostloom.backend", "memory")
          .overrideConfigKey("hostloom.warm-up.timeout", "-1s")
          .assertException(
              e ->
                  assertThat(MissingBackendModuleTest.rootCause(e))
                      .hasMessageContaining("hostloom.locking.namespace must be non-empty")
                      .hasMessageContaining("hostloom.warm-up.timeout must be zero or positive"));

  @Test
  void startUpFails() {
    // assertException above checks the failure
  }
}
