package io.hostloom.micrometer;

import static org.assertj.core.api.Assertions.assertThat;

import io.hostloom.locking.LockOptions;
import io.hostloom.locking.LockingOptions;
import io.hostloom.locking.memory.InMemoryLockBackend;
import io.hostloom.locking.rwlock.DistributedReadWriteLock;
import io.hostloom.locking.rwlock.ReadWriteHandle;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

class ReadWriteLockMetricsTest {
  @Test
  void theGaugesFollowTheReadersAndTheWriterHeldTaggedWithNamespaceAndMode() {
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    try (DistributedReadWriteLock lock =
        DistributedReadWriteLock.create(LockingOptions.of("app"), new InMemoryLockBackend())) {
      ReadWriteLockMetrics.bind(registry, lock, "app");
      assertThat(gauge(registry, "read")).isZero();
      try (ReadWriteHandle r1 = lock.tryAcquireRead("doc", LockOptions.SKIP_IF_BUSY).orElseThrow();
          ReadWriteHandle r2 = lock.tryAcquireRead("doc", LockOptions.SKIP_IF_BUSY).orElseThrow()) {
        assertThat(gauge(registry, "read")).isEqualTo(2.0);
        assertThat(lock.tryAcquireWrite("doc", LockOptions.SKIP_IF_BUSY)).isEmpty();
        assertThat(gauge(registry, "write")).as("a refused writer counts nothing").isZero();
      }
      assertThat(gauge(registry, "read")).isZero();
      try (ReadWriteHandle w =
          lock.tryAcquireWrite("doc", LockOptions.SKIP_IF_BUSY).orElseThrow()) {
        assertThat(gauge(registry, "write")).isEqualTo(1.0);
        w.close();
        assertThat(gauge(registry, "write")).as("close counts down once").isZero();
      }
      assertThat(gauge(registry, "write")).isZero();
    }
  }

  private static double gauge(SimpleMeterRegistry registry, String mode) {
    return registry
        .get(ReadWriteLockMetrics.HELD)
        .tag(LockMetricsListener.NAMESPACE_TAG, "app")
        .tag(ReadWriteLockMetrics.MODE_TAG, mode)
        .gauge()
        .value();
  }
}
