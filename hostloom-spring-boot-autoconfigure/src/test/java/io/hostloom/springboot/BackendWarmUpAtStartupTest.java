package io.hostloom.springboot;

import static org.assertj.core.api.Assertions.assertThat;

import io.hostloom.locking.memory.InMemoryLockBackend;
import io.hostloom.locking.spi.BackendWarmUp;
import io.hostloom.locking.spi.LockBackend;
import io.hostloom.locking.spi.LockBackendException;
import io.hostloom.locking.spi.support.DelegatingLockBackend;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/**
 * {@code hostloom.warm-up.*}: the starter warms up a backend that can at start-up, once; a failed
 * or unfinished warm-up is logged and start-up goes on; {@code enabled=false} skips it.
 */
class BackendWarmUpAtStartupTest {
  /** An in-memory backend whose warm-up answers what the test says, counting the calls. */
  static final class WarmingBackend extends DelegatingLockBackend implements BackendWarmUp {
    final LockBackend memory = new InMemoryLockBackend();
    final AtomicInteger warmUps = new AtomicInteger();
    final Supplier<CompletableFuture<Void>> answer;

    WarmingBackend(Supplier<CompletableFuture<Void>> answer) {
      this.answer = answer;
    }

    @Override
    protected LockBackend delegate() {
      return memory;
    }

    @Override
    public CompletableFuture<Void> warmUp() {
      warmUps.incrementAndGet();
      return answer.get();
    }
  }

  private final ApplicationContextRunner runner =
      new ApplicationContextRunner()
          .withConfiguration(AutoConfigurations.of(HostLoomAutoConfiguration.class))
          .withPropertyValues("hostloom.locking.namespace=warm");

  private ApplicationContextRunner with(WarmingBackend backend) {
    return runner.withBean(LockBackend.class, () -> backend);
  }

  @Test
  void startUpWarmsTheBackendUpOnce() {
    WarmingBackend b = new WarmingBackend(() -> CompletableFuture.completedFuture(null));
    with(b)
        .run(
            ctx -> {
              assertThat(ctx).hasNotFailed();
              assertThat(b.warmUps).hasValue(1);
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
              assertThat(b.warmUps).hasValue(1);
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
              assertThat(b.warmUps).hasValue(1);
            });
  }

  @Test
  void disabledSkipsTheWarmUp() {
    WarmingBackend b = new WarmingBackend(() -> CompletableFuture.completedFuture(null));
    with(b)
        .withPropertyValues("hostloom.warm-up.enabled=false")
        .run(
            ctx -> {
              assertThat(ctx).hasNotFailed();
              assertThat(b.warmUps).hasValue(0);
            });
  }

  @Test
  void aNegativeTimeoutFailsStartUp() {
    WarmingBackend b = new WarmingBackend(() -> CompletableFuture.completedFuture(null));
    with(b)
        .withPropertyValues("hostloom.warm-up.timeout=-1s")
        .run(ctx -> assertThat(ctx).hasFailed());
  }
}
