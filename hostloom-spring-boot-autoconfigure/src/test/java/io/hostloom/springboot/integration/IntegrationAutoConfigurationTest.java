package io.hostloom.springboot.integration;

import static org.assertj.core.api.Assertions.assertThat;

import io.hostloom.integration.HostLoomLeaderInitiator;
import io.hostloom.integration.HostLoomLockRegistry;
import io.hostloom.springboot.HostLoomAutoConfiguration;
import io.hostloom.springboot.backend.memory.MemoryBackendAutoConfiguration;
import io.hostloom.testkit.TestTiming;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.integration.leader.Candidate;
import org.springframework.integration.leader.DefaultCandidate;
import org.springframework.integration.support.locks.DefaultLockRegistry;
import org.springframework.integration.support.locks.LockRegistry;

class IntegrationAutoConfigurationTest {
  final ApplicationContextRunner runner =
      new ApplicationContextRunner()
          .withConfiguration(
              AutoConfigurations.of(
                  HostLoomAutoConfiguration.class,
                  MemoryBackendAutoConfiguration.class,
                  HostLoomIntegrationAutoConfiguration.class))
          .withPropertyValues("hostloom.locking.namespace=app", "hostloom.backend=memory");

  @Test
  void aRegistryOnTheStarterLockAndAnInitiatorForTheCandidateThatLeads() {
    runner
        .withBean(Candidate.class, () -> new DefaultCandidate("node-1", "billing"))
        .run(
            ctx -> {
              HostLoomLockRegistry registry = ctx.getBean(HostLoomLockRegistry.class);
              assertThat(ctx.getBean(LockRegistry.class)).isSameAs(registry);
              assertThat(registry.obtain("k").tryLock()).isTrue();
              registry.obtain("k").unlock();
              HostLoomLeaderInitiator initiator = ctx.getBean(HostLoomLeaderInitiator.class);
              assertThat(initiator.isRunning()).isTrue(); // a SmartLifecycle, started
              TestTiming.await(() -> initiator.getContext().isLeader(), Duration.ofSeconds(20));
              assertThat(initiator.getContext().getRole()).isEqualTo("billing");
              assertThat(initiator.getContext().term()).isPositive();
            });
  }

  @Test
  void backsOffForTheApplicationsOwnRegistryAndWithoutACandidate() {
    runner
        .withBean(LockRegistry.class, DefaultLockRegistry::new)
        .run(
            ctx -> {
              assertThat(ctx).doesNotHaveBean(HostLoomLockRegistry.class);
              assertThat(ctx).doesNotHaveBean(HostLoomLeaderInitiator.class);
            });
  }

  @Test
  void nothingWithoutSpringIntegration() {
    runner
        .withClassLoader(new FilteredClassLoader("org.springframework.integration"))
        .run(ctx -> assertThat(ctx).hasNotFailed().doesNotHaveBean(HostLoomLockRegistry.class));
  }
}
