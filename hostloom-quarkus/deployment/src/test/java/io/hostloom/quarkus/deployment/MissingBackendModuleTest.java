package io.hostloom.quarkus.deployment;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarkus.test.QuarkusUnitTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** hostloom.backend=zookeeper without io.hostloom:hostloom-zookeeper: start-up fails, naming it. */
class MissingBackendModuleTest {
  @RegisterExtension
  static final QuarkusUnitTest APP =
      new QuarkusUnitTest()
          .overrideConfigKey("hostloom.backend", "zookeeper")
          .overrideConfigKey("hostloom.locking.namespace", "quarkus-missing")
          .overrideConfigKey("hostloom.zookeeper.connect-string", "127.0.0.1:1")
          .assertException(
              e ->
                  assertThat(rootCause(e))
                      .hasMessageContaining(
                          "hostloom.backend=zookeeper needs io.hostloom:hostloom-zookeeper on the"
                              + " classpath"));

  static Throwable rootCause(Throwable e) {
    Throwable t = e;
    while (t.getCause() != null && t.getCause() != t) {
      t = t.getCause();
    }
    return t;
  }

  @Test
  void startUpFails() {
    // assertException above checks the failure; this method only makes the extension run
  }
}
