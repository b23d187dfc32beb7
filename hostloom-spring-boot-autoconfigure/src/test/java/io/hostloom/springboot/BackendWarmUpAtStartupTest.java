package io.hostloom.springboot;

import static org.assertj.core.api.Assertions.assertThat;

import io.hostloom.locking.spi.LockBackend;
import io.hostloom.locking.spi.LockBackendException;
import io.hostloom.testkit.capability.WarmingBackend;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/**
 * {@code hostloom.warm-up.*}: the starter warms up a backend that can at start-up, once; a failed
 * or unfinished warm-up is logged and start-up goes on; {@code enabled=false} skips it.
 */
class BackendWarmUpAtStartupTest {
  private final ApplicationContextRunner runner =
      new ApplicationContextRunner()
          .withConfiguration(AutoConfigurations.of(HostLoomAutoConfiguration.class))
          .withPropertyValues("hostloom.locking.namespace=warm");

  private ApplicationContextRunner with(WarmingBackend backend) {
    return runner.withBean(LockBackend.class, () -> backend);
  }

  @Test
  void startUpWarmsTheBackendUpOnce() {
    WarmingBackend b = WarmingBackend.succeeding();
    with(b)
        .run(
            ctx -> {
              assertThat(ctx).hasNotFailed();
              assertThat(b.warmUps()).isEqualTo(1);
            });
  }

  @Test
  void aFailedWarmUpIsLoggedAndStartUpGoesOn() {
    WarmingBackend b =
        new WarmingBackend(
            () ->
                CompletableFuture.failedFuture(
                    LockBackendException.unavailable("nothing listens", null)));
    with(b)
        .run(
            ctx -> {
              assertThat(ctx).hasNotFailed();
              assertThat(b.warmUps()).isEqualTo(1);
            });
  }

  @Test
  void aWarmUpThatDoesNotFinishIsWaitedForAtMostTheTimeout() {
    WarmingBackend b = new WarmingBackend(CompletableFuture::new);
    with(b)
        .withPropertyValues("hostloom.warm-up.timeout=50ms")
        .run(
            ctx -> {
              assertThat(ctx).hasNotFailed();
              assertThat(b.warmUps()).isEqualTo(1);
            });
  }

  @Test
  void disabledSkipsTheWarmUp() {
    WarmingBackend b = WarmingBackend.succeeding();
    with(b)
        .withPropertyValues("hostloom.warm-up.enabled=false")
        .run(
            ctx -> {
              assertThat(ctx).hasNotFailed();
              assertThat(b.warmUps()).isEqualTo(0);
            });
  }

  @Test
  void aNegativeTimeoutFailsStartUp() {
    WarmingBackend b = WarmingBackend.succeeding();
    with(b)
        .withPropertyValues("hostloom.warm-up.timeout=-1s")
        .run(ctx -> assertThat(ctx).hasFailed());
  }
}
