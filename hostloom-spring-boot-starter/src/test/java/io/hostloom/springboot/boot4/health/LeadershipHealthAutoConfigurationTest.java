package io.hostloom.springboot.boot4.health;

import static org.assertj.core.api.Assertions.assertThat;

import io.hostloom.springboot.HostloomAutoConfiguration;
import io.hostloom.springboot.leadership.HostloomLeadershipAutoConfiguration;
import io.hostloom.springboot.leadership.LeaderElectors;
import io.hostloom.springboot.store.memory.MemoryStoreAutoConfiguration;
import io.hostloom.testkit.TestTiming;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.health.contributor.CompositeHealthContributor;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/** The Boot 4 {@code leadership} contributor: one indicator per role, can be off. */
class LeadershipHealthAutoConfigurationTest {
  final ApplicationContextRunner runner =
      new ApplicationContextRunner()
          .withConfiguration(
              AutoConfigurations.of(
                  HostloomAutoConfiguration.class,
                  MemoryStoreAutoConfiguration.class,
                  HostloomLeadershipAutoConfiguration.class,
                  LeadershipHealthAutoConfiguration.class))
          .withPropertyValues(
              "hostloom.locking.namespace=health",
              "hostloom.store=memory",
              "hostloom.leadership.roles.billing.retry-interval=100ms",
              "hostloom.leadership.roles.billing.jitter=0ms");

  @Test
  void eachRoleHasAnIndicatorThatSaysLeaderWithItsTerm() {
    runner.run(
        ctx -> {
          LeaderElectors electors = ctx.getBean(LeaderElectors.class);
          TestTiming.await(electors.get("billing")::isLeader, Duration.ofSeconds(10));
          CompositeHealthContributor health =
              ctx.getBean("leadershipHealthContributor", CompositeHealthContributor.class);
          Health h = ((HealthIndicator) health.getContributor("billing")).health();
          assertThat(h.getStatus()).isEqualTo(Status.UP);
          assertThat(h.getDetails())
              .containsEntry("status", "leader")
              .containsEntry("term", electors.get("billing").leadership().orElseThrow().term());
        });
  }

  @Test
  void theContributorCanBeSwitchedOff() {
    runner
        .withPropertyValues("management.health.leadership.enabled=false")
        .run(ctx -> assertThat(ctx).doesNotHaveBean("leadershipHealthContributor"));
  }
}
