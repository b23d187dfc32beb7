package io.hostloom.micrometer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.hostloom.locking.LockNotAcquiredException;
import io.hostloom.locking.LockOptions;
import io.hostloom.locking.LockingOptions;
import io.hostloom.locking.memory.InMemoryLockBackend;
import io.hostloom.locking.rwlock.DistributedReadWriteLock;
import io.hostloom.locking.rwlock.ReadWriteHandle;
import io.hostloom.testkit.TestTiming;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
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

  @Test
  void theTimerRecordsWholeAcquisitionsByModeAndOutcome() {
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    try (DistributedReadWriteLock lock =
        ReadWriteLockMetrics.timed(
            registry,
            DistributedReadWriteLock.create(LockingOptions.of("app"), new InMemoryLockBackend()),
            "app")) {
      try (ReadWriteHandle r = lock.acquireRead("doc", LockOptions.SKIP_IF_BUSY)) {
        assertThat(lock.tryAcquireWrite("doc", LockOptions.SKIP_IF_BUSY)).isEmpty();
        assertThatThrownBy(() -> lock.acquireWrite("doc", LockOptions.SKIP_IF_BUSY))
            .isInstanceOf(LockNotAcquiredException.class);
        TestTiming.get(
                lock.tryAcquireReadAsync("doc", LockOptions.SKIP_IF_BUSY), Duration.ofSeconds(10))
            .orElseThrow()
            .close();
        String ran = lock.executeWithReadLock("doc", LockOptions.SKIP_IF_BUSY, h -> "ran");
        assertThat(ran).isEqualTo("ran");
      }
      assertThat(timer(registry, "read", "acquired").count()).isEqualTo(3);
      assertThat(timer(registry, "write", "not_acquired").count()).isEqualTo(2);
      assertThat(lock.tryAcquireWrite("doc", LockOptions.SKIP_IF_BUSY).orElseThrow().isHeld())
          .isTrue();
      assertThat(timer(registry, "write", "acquired").count()).isEqualTo(1);
    }
  }

  private static Timer timer(SimpleMeterRegistry registry, String mode, String outcome) {
    return registry
        .get(ReadWriteLockMetrics.ACQUIRE_DURATION)
        .tag(LockMetricsListener.NAMESPACE_TAG, "app")
        .tag(ReadWriteLockMetrics.MODE_TAG, mode)
        .tag(LockMetricsListener.OUTCOME_TAG, outcome)
        .timer();
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
