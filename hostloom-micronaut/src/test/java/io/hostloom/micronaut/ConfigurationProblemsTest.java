package io.hostloom.micronaut;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.hostloom.locking.DistributedLock;
import io.micronaut.context.ApplicationContext;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Bad settings fail when the lock bean is built, with one message naming every problem. */
class ConfigurationProblemsTest {
  @Test
  void everyLockingProblemIsListedAtOnce() {
    assertFailure(
        Map.of(
            "hostloom.backend", "memory",
            "hostloom.locking.namespace", "Not Valid",
            "hostloom.locking.retry", "fibonacci:3x1ms",
            "hostloom.locking.max-key-length", "0"),
        "hostloom.locking.namespace must be non-empty",
        "hostloom.locking.retry must be default",
        "hostloom.locking.max-key-length");
  }

  @Test
  void anUnknownOrMissingBackendIsNamed() {
    assertFailure(
        Map.of("hostloom.backend", "carrier-pigeon", "hostloom.locking.namespace", "ns"),
        "hostloom.backend must be one of memory, redis, etcd, zookeeper but was 'carrier-pigeon'");
    assertFailure(
        Map.of("hostloom.locking.namespace", "ns"),
        "hostloom.backend is not set",
        "hostloom.locking.enabled=false");
  }

  @Test
  void redisWithoutAUriSaysWhatToSet() {
    assertFailure(
        Map.of("hostloom.backend", "redis", "hostloom.locking.namespace", "ns"),
        "hostloom.redis.uri is required with hostloom.backend=redis");
  }

  @Test
  void disabledLockingNeedsNoBackend() {
    try (ApplicationContext c =
        ApplicationContext.run(
            Map.of("hostloom.locking.enabled", "false", "hostloom.locking.namespace", "ns"))) {
      DistributedLock lock = c.getBean(DistributedLock.class);
      assertThat(lock.isCoordinated()).isFalse();
      String ran = lock.executeWithLock("k", h -> "ran");
      assertThat(ran).isEqualTo("ran");
    }
  }

  /**
   * Start-up fails naming each fragment: at the context's start (the warm-up builds the backend
   * there) or at the lock bean.
   */
  private static void assertFailure(Map<String, Object> properties, String... fragments) {
    var thrown =
        assertThatThrownBy(
            () -> {
              try (ApplicationContext c = ApplicationContext.run(properties)) {
                c.getBean(DistributedLock.class);
              }
            });
    for (String f : fragments) {
      thrown.hasStackTraceContaining(f);
    }
  }
}
