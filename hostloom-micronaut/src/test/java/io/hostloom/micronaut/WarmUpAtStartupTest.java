package io.hostloom.micronaut;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.hostloom.locking.DistributedLock;
import io.hostloom.locking.spi.LockBackendException;
import io.hostloom.testkit.capability.WarmingBackend;
import io.micronaut.context.ApplicationContext;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/**
 * {@code hostloom.warm-up.*}: start-up warms up the application's backend once; a failed or
 * unfinished warm-up is logged and start-up goes on; {@code enabled=false} skips it; a negative
 * timeout fails start-up naming the property.
 */
class WarmUpAtStartupTest {
  private static ApplicationContext start(WarmingBackend backend, String... settings) {
    Map<String, Object> properties = new HashMap<>(Map.of("hostloom.locking.namespace", "warm"));
    for (int i = 0; i < settings.length; i += 2) {
      properties.put(settings[i], settings[i + 1]);
    }
    return ApplicationContext.builder().properties(properties).singletons(backend).start();
  }

  @Test
  void startUpWarmsTheApplicationsBackendUpOnce() {
    WarmingBackend b = WarmingBackend.succeeding();
    try (ApplicationContext c = start(b)) {
      assertThat(b.warmUps()).isEqualTo(1);
      String ran = c.getBean(DistributedLock.class).executeWithLock("k", h -> "ran");
      assertThat(ran).isEqualTo("ran");
    }
  }

  @Test
  void aFailedWarmUpIsLoggedAndStartUpGoesOn() {
    WarmingBackend b =
        new WarmingBackend(
            () ->
                CompletableFuture.failedFuture(
                    LockBackendException.unavailable("nothing listens", null)));
    try (ApplicationContext c = start(b)) {
      assertThat(c.isRunning()).isTrue();
      assertThat(b.warmUps()).isEqualTo(1);
    }
  }

  @Test
  void aWarmUpThatDoesNotFinishIsWaitedForAtMostTheTimeout() {
    WarmingBackend b = new WarmingBackend(CompletableFuture::new);
    try (ApplicationContext c = start(b, "hostloom.warm-up.timeout", "50ms")) {
      assertThat(c.isRunning()).isTrue();
      assertThat(b.warmUps()).isEqualTo(1);
    }
  }

  @Test
  void disabledSkipsTheWarmUp() {
    WarmingBackend b = WarmingBackend.succeeding();
    try (ApplicationContext c = start(b, "hostloom.warm-up.enabled", "false")) {
      assertThat(c.isRunning()).isTrue();
      assertThat(b.warmUps()).isZero();
    }
  }

  @Test
  void aNegativeTimeoutFailsStartUp() {
    WarmingBackend b = WarmingBackend.succeeding();
    assertThatThrownBy(() -> start(b, "hostloom.warm-up.timeout", "-1s").close())
        .hasStackTraceContaining("hostloom.warm-up.timeout must be zero or positive");
    assertThat(b.warmUps()).isZero();
  }
}
