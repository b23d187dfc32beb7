package io.hostloom.micronaut;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.hostloom.locking.LockHandle;
import io.hostloom.locking.LockNotAcquiredException;
import io.hostloom.locking.memory.InMemoryLockBackend;
import io.hostloom.micrometer.LockMetricsListener;
import io.hostloom.micronaut.docs.NightlyReportJob;
import io.hostloom.redis.RedisLockBackend;
import io.micrometer.core.instrument.MeterRegistry;
import io.micronaut.context.ApplicationContext;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import io.micronaut.test.support.TestPropertyProvider;
import jakarta.inject.Inject;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/** hostloom.backend=memory: the kernel's backend, the advice, health and metrics. */
@MicronautTest
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class MemoryMicronautTest extends BackendContextContract implements TestPropertyProvider {
  @Inject ApplicationContext context;
  @Inject MeterRegistry meters;
  @Inject NightlyReportJob report;

  @Override
  Class<InMemoryLockBackend> backendType() {
    return InMemoryLockBackend.class;
  }

  @Override
  public Map<String, String> getProperties() {
    return Map.of("hostloom.backend", "memory", "hostloom.locking.namespace", "mn-memory");
  }

  @Test
  void onlyTheMemoryBackendIsBuilt() {
    assertThat(context.findBean(RedisLockBackend.class)).isEmpty();
    try (LockHandle h = lock.acquire("bean")) {
      assertThat(h.isHeld()).isTrue();
      assertThat(lock.tryAcquire("bean")).isEmpty();
    }
  }

  @Test
  void healthSaysTheBackendHasNoProbe() {
    assertThat(Health.details(Health.check(health)))
        .containsEntry("probe", "the backend has no health probe; assumed reachable");
  }

  @Test
  void theLocksEventsReachMicrometer() {
    double before = acquisitions();
    guarded.defaultLeased(() -> "ran");
    assertThat(acquisitions()).isEqualTo(before + 1);
  }

  private double acquisitions() {
    return meters.find(LockMetricsListener.ACQUIRE_DURATION).timers().stream()
        .mapToDouble(t -> t.count())
        .sum();
  }

  @Test
  void theReadmeJobIsRefusedWhileAnotherHoldsItsKey() {
    assertThat(report.run()).isEqualTo("report written");
    LockHandle elsewhere = lock.acquireAsync("nightly-report").join(); // not this thread's
    try {
      assertThatThrownBy(report::run).isInstanceOf(LockNotAcquiredException.class);
    } finally {
      elsewhere.close();
    }
    assertThat(report.run()).as("released elsewhere").isEqualTo("report written");
  }
}
