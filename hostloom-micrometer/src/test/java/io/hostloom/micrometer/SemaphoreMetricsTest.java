package io.hostloom.micrometer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.hostloom.locking.LockNotAcquiredException;
import io.hostloom.locking.LockOptions;
import io.hostloom.locking.LockingOptions;
import io.hostloom.locking.memory.InMemoryLockBackend;
import io.hostloom.locking.semaphore.DistributedSemaphore;
import io.hostloom.locking.semaphore.DistributedSemaphores;
import io.hostloom.locking.semaphore.PermitCountMismatchException;
import io.hostloom.locking.semaphore.Permits;
import io.hostloom.testkit.TestTiming;
import io.micrometer.core.instrument.MockClock;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleConfig;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
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

  @Test
  void theTimerRecordsWholeAcquisitionsByOutcomeWaitsIncluded() throws Exception {
    MockClock clock = new MockClock();
    SimpleMeterRegistry registry = new SimpleMeterRegistry(SimpleConfig.DEFAULT, clock);
    try (DistributedSemaphores semaphores =
        DistributedSemaphores.create(LockingOptions.of("app"), new InMemoryLockBackend())) {
      DistributedSemaphore pool =
          SemaphoreMetrics.timed(registry, "app", semaphores.semaphore("exports", 1));
      Permits held = pool.acquire(1, LockOptions.SKIP_IF_BUSY);
      assertThat(pool.tryAcquire()).isEmpty();
      assertThatThrownBy(() -> pool.acquire(1, LockOptions.SKIP_IF_BUSY))
          .isInstanceOf(LockNotAcquiredException.class);
      DistributedSemaphore other =
          SemaphoreMetrics.timed(registry, "app", semaphores.semaphore("exports", 2));
      assertThatThrownBy(() -> other.tryAcquire(2, LockOptions.SKIP_IF_BUSY))
          .isInstanceOf(PermitCountMismatchException.class); // meets slot 0: always a contact
      assertThat(timer(registry, "acquired").count()).isEqualTo(1);
      assertThat(timer(registry, "not_acquired").count()).isEqualTo(2);
      assertThat(timer(registry, "count_mismatch").count()).isEqualTo(1);

      // a waiter: the time it waits for the release is part of its acquisition
      CompletableFuture<Permits> waiting = new CompletableFuture<>();
      Thread waiter =
          new Thread(
              () -> {
                try {
                  waiting.complete(
                      pool.acquire(
                          1, LockOptions.builder().maxWait(Duration.ofSeconds(30)).build()));
                } catch (RuntimeException e) {
                  waiting.completeExceptionally(e);
                }
              },
              "timed-waiter");
      waiter.start();
      TestTiming.await(
          "the waiter waits between rounds",
          SemaphoreMetricsTest::waiterParked,
          Duration.ofSeconds(10));
      clock.add(Duration.ofSeconds(5));
      held.close();
      TestTiming.get(waiting, Duration.ofSeconds(20)).close();
      assertThat(timer(registry, "acquired").count()).isEqualTo(2);
      assertThat(timer(registry, "acquired").totalTime(TimeUnit.SECONDS)).isEqualTo(5.0);

      // executeWithPermits: timed up to the action; what the action throws is not an outcome
      assertThatThrownBy(
              () ->
                  pool.runWithPermits(
                      1,
                      LockOptions.SKIP_IF_BUSY,
                      p -> {
                        throw LockNotAcquiredException.of("elsewhere", 1, Duration.ZERO);
                      }))
          .isInstanceOf(LockNotAcquiredException.class);
      assertThat(timer(registry, "acquired").count()).isEqualTo(3);
      assertThat(timer(registry, "not_acquired").count()).isEqualTo(2);
    }
  }

  private static boolean waiterParked() {
    return Thread.getAllStackTraces().keySet().stream()
        .anyMatch(
            t ->
                t.getName().equals("timed-waiter")
                    && (t.getState() == Thread.State.WAITING
                        || t.getState() == Thread.State.TIMED_WAITING)
                    && java.util.Arrays.stream(t.getStackTrace())
                        .anyMatch(f -> f.getClassName().contains("SlotSemaphore")));
  }

  private static Timer timer(SimpleMeterRegistry registry, String outcome) {
    return registry
        .get(SemaphoreMetrics.ACQUIRE_DURATION)
        .tag(LockMetricsListener.NAMESPACE_TAG, "app")
        .tag(LockMetricsListener.OUTCOME_TAG, outcome)
        .timer();
  }

  private static double gauge(SimpleMeterRegistry registry) {
    return registry
        .get(SemaphoreMetrics.PERMITS_HELD)
        .tag(LockMetricsListener.NAMESPACE_TAG, "app")
        .gauge()
        .value();
  }
}
