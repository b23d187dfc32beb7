package io.hostloom.springboot.rwlock;

import static org.assertj.core.api.Assertions.assertThat;

import io.hostloom.locking.LockOptions;
import io.hostloom.locking.rwlock.DistributedReadWriteLock;
import io.hostloom.locking.rwlock.ReadWriteHandle;
import io.hostloom.locking.spi.LockBackend;
import io.hostloom.micrometer.ReadWriteLockMetrics;
import io.hostloom.springboot.HostLoomAutoConfiguration;
import io.hostloom.springboot.backend.memory.MemoryBackendAutoConfiguration;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/** The reader-writer lock bean: over the starter's backend, gated, overridable. */
class ReadWriteLockAutoConfigurationTest {
  private final ApplicationContextRunner runner =
      new ApplicationContextRunner()
          .withConfiguration(
              AutoConfigurations.of(
                  HostLoomAutoConfiguration.class,
                  MemoryBackendAutoConfiguration.class,
                  HostLoomReadWriteLockAutoConfiguration.class))
          .withPropertyValues("hostloom.locking.namespace=orders", "hostloom.backend=memory");

  @Test
  void aReadWriteLockOverTheStartersBackend() {
    runner.run(
        ctx -> {
          assertThat(ctx).hasNotFailed().hasSingleBean(DistributedReadWriteLock.class);
          DistributedReadWriteLock rw = ctx.getBean(DistributedReadWriteLock.class);
          assertThat(rw.readerSlots())
              .isEqualTo(DistributedReadWriteLock.Builder.DEFAULT_READER_SLOTS);
          try (ReadWriteHandle w = rw.acquireWrite("invoice", LockOptions.SKIP_IF_BUSY)) {
            // the writer's entry lives on the starter's backend (its native views), under the
            // namespace's rwlock keys
            assertThat(
                    ((io.hostloom.locking.spi.ReadWriteLeases) ctx.getBean(LockBackend.class))
                        .readWriteViews(1)
                        .orElseThrow()
                        .write()
                        .read("orders:rwlock:invoice")
                        .join())
                .isPresent();
            assertThat(rw.tryAcquireRead("invoice", LockOptions.SKIP_IF_BUSY)).isEmpty();
            assertThat(w.fencingToken()).isPositive();
          }
        });
  }

  @Test
  void noneWhenLockingIsDisabledAndTheApplicationsOwnWins() {
    runner
        .withPropertyValues("hostloom.locking.enabled=false")
        .run(ctx -> assertThat(ctx).hasNotFailed().doesNotHaveBean(DistributedReadWriteLock.class));
    runner
        .withBean(
            "own",
            DistributedReadWriteLock.class,
            () ->
                DistributedReadWriteLock.builder(
                        io.hostloom.locking.LockingOptions.of("own"),
                        new io.hostloom.locking.memory.InMemoryLockBackend())
                    .readerSlots(2)
                    .build())
        .run(
            ctx -> {
              assertThat(ctx).hasSingleBean(DistributedReadWriteLock.class);
              assertThat(ctx.getBean(DistributedReadWriteLock.class).readerSlots()).isEqualTo(2);
            });
  }

  @Test
  void aMeterRegistryGetsTheHeldGaugesPerMode() {
    runner
        .withBean(SimpleMeterRegistry.class)
        .run(
            ctx -> {
              assertThat(ctx).hasNotFailed();
              DistributedReadWriteLock rw = ctx.getBean(DistributedReadWriteLock.class);
              SimpleMeterRegistry registry = ctx.getBean(SimpleMeterRegistry.class);
              try (ReadWriteHandle r = rw.acquireRead("invoice", LockOptions.SKIP_IF_BUSY)) {
                assertThat(held(registry, "read")).isEqualTo(1.0);
                assertThat(held(registry, "write")).isZero();
              }
              assertThat(held(registry, "read")).isZero();
            });
  }

  private static double held(SimpleMeterRegistry registry, String mode) {
    return registry
        .get(ReadWriteLockMetrics.HELD)
        .tag("hostloom.lock.namespace", "orders")
        .tag(ReadWriteLockMetrics.MODE_TAG, mode)
        .gauge()
        .value();
  }
}
