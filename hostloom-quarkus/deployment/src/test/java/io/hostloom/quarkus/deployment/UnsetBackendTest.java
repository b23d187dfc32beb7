package io.hostloom.quarkus.deployment;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarkus.test.QuarkusUnitTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Locking enabled without hostloom.backend: start-up fails, listing the choices. */
class UnsetBackendTest {
  @RegisterExtension
  static final QuarkusUnitTest APP =
      new QuarkusUnitTest()
          .overrideConfigKey("hostloom.locking.namespace", "quarkus-unset")
          .assertException(
              e ->
                  assertThat(MissingBackendModuleTest.rootCause(e))
                      .hasMessageContaining(
                          "hostloom.backend is not set: choose where locks live with"
                              + " hostloom.backend=memory, redis, postgres, mariadb, etcd,"
                              + " zookeeper, azure"));

  @Test
  void startUpFails() {
    // assertException above checks the failure
  }
}
