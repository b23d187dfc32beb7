package io.hostloom.springboot.health;

import static org.assertj.core.api.Assertions.assertThat;

import io.hostloom.locking.spi.BackendHealth;
import io.hostloom.locking.spi.LockBackend;
import io.hostloom.springboot.HostloomAutoConfiguration;
import io.hostloom.springboot.backend.memory.MemoryBackendAutoConfiguration;
import io.hostloom.springboot.leadership.HostloomLeadershipAutoConfiguration;
import io.hostloom.springboot.leadership.LeaderElectors;
import io.hostloom.testkit.TestTiming;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/**
 * What each Boot generation's health adapters must do, written once: the {@code hostloom} indicator
 * mirrors {@link HostloomHealthCheck} (status and details) and can be switched off; the {@code
 * leadership} contributor has one indicator per role saying leader with its term, and can be
 * switched off. Each starter subclasses it and reads its own Boot types through the hooks (Boot 3.5
 * and 4 name them in different packages).
 */
public abstract class HealthAdaptersContract {

  /** An indicator's answer, read from the Boot generation's {@code Health}. */
  public record Reading(String status, Map<String, Object> details) {}

  /** The generation's {@code HostloomHealthAutoConfiguration}. */
  protected abstract Class<?> healthAutoConfiguration();

  /** The generation's {@code LeadershipHealthAutoConfiguration}. */
  protected abstract Class<?> leadershipHealthAutoConfiguration();

  /** The generation's {@code HostloomHealthIndicator}. */
  protected abstract Class<?> indicatorType();

  /** {@code indicator.health()}, read. */
  protected abstract Reading health(Object indicator);

  /** The health of {@code role} in the {@code leadershipHealthContributor} bean, read. */
  protected abstract Reading roleHealth(Object leadershipContributor, String role);

  private ApplicationContextRunner healthRunner() {
    return new ApplicationContextRunner()
        .withConfiguration(
            AutoConfigurations.of(
                HostloomAutoConfiguration.class,
                MemoryBackendAutoConfiguration.class,
                healthAutoConfiguration()))
        .withPropertyValues("hostloom.locking.namespace=health");
  }

  private ApplicationContextRunner leadershipRunner() {
    return new ApplicationContextRunner()
        .withConfiguration(
            AutoConfigurations.of(
                HostloomAutoConfiguration.class,
                MemoryBackendAutoConfiguration.class,
                HostloomLeadershipAutoConfiguration.class,
                leadershipHealthAutoConfiguration()))
        .withPropertyValues(
            "hostloom.locking.namespace=health",
            "hostloom.backend=memory",
            "hostloom.leadership.roles.billing.retry-interval=100ms",
            "hostloom.leadership.roles.billing.jitter=0ms");
  }

  @Test
  void oneIndicatorNamedHostloomCarriesTheChecksStatusAndDetails() {
    ProbedBackend probed = new ProbedBackend();
    healthRunner()
        .withBean(LockBackend.class, () -> probed)
        .run(
            ctx -> {
              assertThat(ctx).hasSingleBean(indicatorType());
              assertThat(ctx).hasBean("hostloomHealthIndicator");
              Object indicator = ctx.getBean(indicatorType());
              probed.answer = CompletableFuture.completedFuture(BackendHealth.healthy("PONG"));
              Reading up = health(indicator);
              assertThat(up.status()).isEqualTo("UP");
              assertThat(up.details()).containsEntry("backend", "probed");
              assertThat(up.details()).containsEntry("probe", "PONG");
              probed.answer = CompletableFuture.completedFuture(BackendHealth.unhealthy("gone"));
              assertThat(health(indicator).status()).isEqualTo("DOWN");
            });
  }

  @Test
  void theIndicatorCanBeSwitchedOff() {
    healthRunner()
        .withPropertyValues("hostloom.backend=memory", "management.health.hostloom.enabled=false")
        .run(ctx -> assertThat(ctx).doesNotHaveBean(indicatorType()));
  }

  @Test
  void eachRoleHasAnIndicatorThatSaysLeaderWithItsTerm() {
    leadershipRunner()
        .run(
            ctx -> {
              LeaderElectors electors = ctx.getBean(LeaderElectors.class);
              TestTiming.await(electors.get("billing")::isLeader, Duration.ofSeconds(10));
              Reading h = roleHealth(ctx.getBean("leadershipHealthContributor"), "billing");
              assertThat(h.status()).isEqualTo("UP");
              assertThat(h.details())
                  .containsEntry("status", "leader")
                  .containsEntry("term", electors.get("billing").leadership().orElseThrow().term());
            });
  }

  @Test
  void theLeadershipContributorCanBeSwitchedOff() {
    leadershipRunner()
        .withPropertyValues("management.health.leadership.enabled=false")
        .run(ctx -> assertThat(ctx).doesNotHaveBean("leadershipHealthContributor"));
  }
}
