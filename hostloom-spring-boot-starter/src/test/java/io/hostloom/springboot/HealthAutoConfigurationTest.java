package io.hostloom.springboot;

import static io.hostloom.springboot.HostloomAutoConfigurationTest.ALL;
import static org.assertj.core.api.Assertions.assertThat;

import io.hostloom.locking.memory.InMemoryLockBackend;
import io.hostloom.locking.spi.BackendHealth;
import io.hostloom.locking.spi.BackendHealthProbe;
import io.hostloom.locking.spi.LockBackend;
import io.hostloom.springboot.health.HostloomHealthIndicator;
import io.hostloom.testkit.ForwardingLockBackend;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.springframework.boot.actuate.health.Health;
import org.springframework.boot.actuate.health.Status;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/** Contract 110 in Spring form: one readiness indicator, mirroring the store's probe. */
class HealthAutoConfigurationTest {
  final ApplicationContextRunner runner =
      new ApplicationContextRunner()
          .withConfiguration(ALL)
          .withPropertyValues("hostloom.locking.namespace=health");

  @Test
  void oneIndicatorIsRegisteredAndAStoreWithoutAProbeIsUpWithAnExplanation() {
    runner
        .withPropertyValues("hostloom.store=memory")
        .run(
            ctx -> {
              assertThat(ctx).hasSingleBean(HostloomHealthIndicator.class);
              assertThat(ctx).hasBean("hostloomHealthIndicator");
              Health h = ctx.getBean(HostloomHealthIndicator.class).health();
              assertThat(h.getStatus()).isEqualTo(Status.UP);
              assertThat(h.getDetails())
                  .containsEntry("store", "in-memory")
                  .containsEntry("probe", "the store has no health probe; assumed reachable");
            });
  }

  @Test
  void disabledLockingIsUpWithDisabled() {
    runner
        .withPropertyValues("hostloom.locking.enabled=false")
        .run(
            ctx -> {
              Health h = ctx.getBean(HostloomHealthIndicator.class).health();
              assertThat(h.getStatus()).isEqualTo(Status.UP);
              assertThat(h.getDetails()).containsEntry("locking", "disabled");
            });
  }

  @Test
  void aProbedStoreIsMirrored() {
    ProbedBackend probed = new ProbedBackend();
    runner
        .withBean(LockBackend.class, () -> probed)
        .run(
            ctx -> {
              HostloomHealthIndicator indicator = ctx.getBean(HostloomHealthIndicator.class);
              probed.answer = CompletableFuture.completedFuture(BackendHealth.healthy("PONG"));
              assertThat(indicator.health().getStatus()).isEqualTo(Status.UP);
              assertThat(indicator.health().getDetails()).containsEntry("probe", "PONG");
              probed.answer =
                  CompletableFuture.completedFuture(BackendHealth.unhealthy("connection refused"));
              assertThat(indicator.health().getStatus()).isEqualTo(Status.DOWN);
              assertThat(indicator.health().getDetails())
                  .containsEntry("probe", "connection refused");
              probed.answer = CompletableFuture.failedFuture(new IllegalStateException("bug"));
              assertThat(indicator.health().getStatus()).isEqualTo(Status.DOWN);
            });
  }

  @Test
  void theIndicatorCanBeSwitchedOff() {
    runner
        .withPropertyValues("hostloom.store=memory", "management.health.hostloom.enabled=false")
        .run(ctx -> assertThat(ctx).doesNotHaveBean(HostloomHealthIndicator.class));
  }

  /** An in-memory store with a health probe whose answer the test sets. */
  static final class ProbedBackend extends ForwardingLockBackend implements BackendHealthProbe {
    volatile CompletableFuture<BackendHealth> answer =
        CompletableFuture.completedFuture(BackendHealth.healthy("ok"));

    ProbedBackend() {
      super(new InMemoryLockBackend());
    }

    @Override
    public CompletableFuture<BackendHealth> checkHealth() {
      return answer;
    }

    @Override
    public String name() {
      return "probed";
    }
  }
}
