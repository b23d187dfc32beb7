package io.hostloom.micrometer;

import static org.assertj.core.api.Assertions.assertThat;

import io.hostloom.locking.LockOptions;
import io.hostloom.locking.LockingOptions;
import io.hostloom.locking.memory.InMemoryLockBackend;
import io.hostloom.locking.semaphore.DistributedSemaphore;
import io.hostloom.locking.semaphore.DistributedSemaphores;
import io.hostloom.locking.semaphore.Permits;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

class SemaphoreMetricsTest {
  @Test
  void theGaugeFollowsThePermitsHeldTaggedWithTheNamespace() {
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    try (DistributedSemaphores semaphores =
        DistributedSemaphores.create(LockingOptions.of("app"), new InMemoryLockBackend())) {
      SemaphoreMetrics.bind(registry, semaphores);
      DistributedSemaphore pool = semaphores.semaphore("exports", 3);
      double before = gauge(registry);
      try (Permits two = pool.acquire(2, LockOptions.SKIP_IF_BUSY)) {
        assertThat(gauge(registry)).isEqualTo(2.0);
        try (Permits one = pool.tryAcquire().orElseThrow()) {
          assertThat(gauge(registry)).isEqualTo(3.0);
          assertThat(pool.tryAcquire(1, LockOptions.SKIP_IF_BUSY)).isEmpty();
          assertThat(gauge(registry)).as("a refused round counts nothing").isEqualTo(3.0);
        }
      }
      assertThat(before).isZero();
      assertThat(gauge(registry)).isZero();
    }
  }

  private static double gauge(SimpleMeterRegistry registry) {
    return registry
        .get(SemaphoreMetrics.PERMITS_HELD)
        .tag(LockMetricsListener.NAMESPACE_TAG, "app")
        .gauge()
        .value();
  }
}
