package io.hostloom.springboot.boot3.health;

import static org.assertj.core.api.Assertions.assertThat;

import io.hostloom.locking.spi.BackendHealth;
import io.hostloom.locking.spi.LockBackend;
import io.hostloom.springboot.HostloomAutoConfiguration;
import io.hostloom.springboot.health.ProbedBackend;
import io.hostloom.springboot.store.memory.MemoryStoreAutoConfiguration;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.springframework.boot.actuate.health.Health;
import org.springframework.boot.actuate.health.Status;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/** The Boot 3.5 indicator: registered under {@code hostloom}, mirrors the check, can be off. */
class HealthAutoConfigurationTest {
  final ApplicationContextRunner runner =
      new ApplicationContextRunner()
          .withConfiguration(
              AutoConfigurations.of(
                  HostloomAutoConfiguration.class,
                  MemoryStoreAutoConfiguration.class,
                  HostloomHealthAutoConfiguration.class))
          .withPropertyValues("hostloom.locking.namespace=health");

  @Test
  void oneIndicatorNamedHostloomCarriesTheChecksStatusAndDetails() {
    ProbedBackend probed = new ProbedBackend();
    runner
        .withBean(LockBackend.class, () -> probed)
        .run(
            ctx -> {
              assertThat(ctx).hasSingleBean(HostloomHealthIndicator.class);
              assertThat(ctx).hasBean("hostloomHealthIndicator");
              HostloomHealthIndicator indicator = ctx.getBean(HostloomHealthIndicator.class);
              probed.answer = CompletableFuture.completedFuture(BackendHealth.healthy("PONG"));
              Health up = indicator.health();
              assertThat(up.getStatus()).isEqualTo(Status.UP);
              assertThat(up.getDetails()).containsEntry("store", "probed");
              assertThat(up.getDetails()).containsEntry("probe", "PONG");
              probed.answer = CompletableFuture.completedFuture(BackendHealth.unhealthy("gone"));
              assertThat(indicator.health().getStatus()).isEqualTo(Status.DOWN);
            });
  }

  @Test
  void theIndicatorCanBeSwitchedOff() {
    runner
        .withPropertyValues("hostloom.store=memory", "management.health.hostloom.enabled=false")
        .run(ctx -> assertThat(ctx).doesNotHaveBean(HostloomHealthIndicator.class));
  }
}
