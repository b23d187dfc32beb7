package io.hostloom.springboot.semaphore;

import static org.assertj.core.api.Assertions.assertThat;

import io.hostloom.locking.LockOptions;
import io.hostloom.locking.LockingOptions;
import io.hostloom.locking.memory.InMemoryLockBackend;
import io.hostloom.locking.semaphore.DistributedSemaphore;
import io.hostloom.locking.semaphore.DistributedSemaphores;
import io.hostloom.locking.semaphore.Permits;
import io.hostloom.micrometer.SemaphoreMetrics;
import io.hostloom.springboot.HostLoomAutoConfiguration;
import io.hostloom.springboot.backend.memory.MemoryBackendAutoConfiguration;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/** The semaphore factory bean over the starter's backend, and its back-off. */
class HostLoomSemaphoreAutoConfigurationTest {
  private final ApplicationContextRunner runner =
      new ApplicationContextRunner()
          .withConfiguration(
              AutoConfigurations.of(
                  HostLoomAutoConfiguration.class,
                  MemoryBackendAutoConfiguration.class,
                  HostLoomSemaphoreAutoConfiguration.class))
          .withPropertyValues("hostloom.locking.namespace=orders", "hostloom.backend=memory");

  @Test
  void theFactoryUsesTheStartersBackendAndNamespace() {
    runner.run(
        ctx -> {
          assertThat(ctx).hasNotFailed().hasSingleBean(DistributedSemaphores.class);
          DistributedSemaphore sem =
              ctx.getBean(DistributedSemaphores.class).semaphore("exports", 2);
          try (Permits p = sem.tryAcquire().orElseThrow()) {
            assertThat(p.isCoordinated()).isTrue();
            InMemoryLockBackend backend = ctx.getBean(InMemoryLockBackend.class);
            assertThat(backend.liveCount()).isEqualTo(1);
            // the in-memory backend's native view: one key per semaphore
            assertThat(backend.permitView(2).orElseThrow().read("orders:semaphore:exports").join())
                .isPresent();
          }
        });
  }

  @Test
  void aMeterRegistryGetsThePermitsHeldGauge() {
    runner
        .withBean(SimpleMeterRegistry.class)
        .run(
            ctx -> {
              assertThat(ctx).hasNotFailed();
              DistributedSemaphore sem =
                  ctx.getBean(DistributedSemaphores.class).semaphore("exports", 2);
              SimpleMeterRegistry registry = ctx.getBean(SimpleMeterRegistry.class);
              try (Permits p = sem.acquire(2, LockOptions.SKIP_IF_BUSY)) {
                assertThat(
                        registry
                            .get(SemaphoreMetrics.PERMITS_HELD)
                            .tag("hostloom.lock.namespace", "orders")
                            .gauge()
                            .value())
                    .isEqualTo(2.0);
              }
            });
  }

  @Test
  void singleInstanceModeGivesPlaceholders() {
    runner
        .withPropertyValues("hostloom.locking.enabled=false")
        .run(
            ctx -> {
              assertThat(ctx).hasNotFailed();
              try (Permits p =
                  ctx.getBean(DistributedSemaphores.class)
                      .semaphore("exports", 1)
                      .tryAcquire()
                      .orElseThrow()) {
                assertThat(p.isCoordinated()).isFalse();
              }
            });
  }

  @Test
  void backsOffForTheApplicationsOwnFactory() {
    runner
        .withBean(
            "mine",
            DistributedSemaphores.class,
            () ->
                DistributedSemaphores.create(LockingOptions.of("mine"), new InMemoryLockBackend()))
        .run(
            ctx -> {
              assertThat(ctx).hasSingleBean(DistributedSemaphores.class);
              assertThat(ctx.getBeanNamesForType(DistributedSemaphores.class))
                  .containsExactly("mine");
            });
  }
}
