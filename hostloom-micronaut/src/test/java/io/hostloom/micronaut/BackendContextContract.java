package io.hostloom.micronaut;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.hostloom.locking.DistributedLock;
import io.hostloom.locking.LockNotAcquiredException;
import io.hostloom.locking.LockReentrancyException;
import io.hostloom.locking.spi.LockBackend;
import io.hostloom.micronaut.health.HostLoomHealthIndicator;
import io.micronaut.health.HealthStatus;
import io.micronaut.management.health.indicator.HealthResult;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * What a context must give on any backend (the backend {@code hostloom.backend} names, health UP,
 * the {@link WithLock} advice): each backend's {@code @MicronautTest} extends this and runs these
 * tests on its own context.
 */
abstract class BackendContextContract {
  @Inject DistributedLock lock;
  @Inject Guarded guarded;
  @Inject LockBackend backend;
  @Inject HostLoomHealthIndicator health;

  /** The backend class {@code hostloom.backend} names in this test's properties. */
  abstract Class<? extends LockBackend> backendType();

  @Test
  void theBackendIsTheOneHostloomBackendNames() {
    assertThat(backend).isInstanceOf(backendType());
  }

  @Test
  void grantsOfOneKeyCarryIncreasingFencingTokens() {
    long first = lock.executeWithLock("fenced", h -> h.fencingToken());
    long second = lock.executeWithLock("fenced", h -> h.fencingToken());
    assertThat(second).isGreaterThan(first);
  }

  @Test
  void healthIsUpAndNamesTheBackend() {
    HealthResult r = Health.check(health);
    assertThat(r.getName()).isEqualTo(HostLoomHealthIndicator.NAME);
    assertThat(r.getStatus()).isEqualTo(HealthStatus.UP);
    assertThat(Health.details(r)).containsEntry("backend", backend.name());
  }

  /** A second call while the first holds the key fails with LockNotAcquiredException. */
  @Test
  void theAdviceRefusesASecondCallWhileTheFirstHolds() throws Exception {
    CountDownLatch entered = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    ExecutorService first = Executors.newSingleThreadExecutor();
    try {
      Future<String> holder = first.submit(() -> guarded.hold(entered, release));
      assertThat(entered.await(30, TimeUnit.SECONDS)).isTrue();

      CountDownLatch never = new CountDownLatch(1);
      assertThatThrownBy(() -> guarded.hold(never, release))
          .isInstanceOf(LockNotAcquiredException.class)
          .hasMessageContaining("'hold' not acquired");
      assertThat(never.getCount()).as("the refused call's body never ran").isEqualTo(1);

      release.countDown();
      assertThat(holder.get(30, TimeUnit.SECONDS)).isEqualTo("held");
      CountDownLatch again = new CountDownLatch(1);
      assertThat(guarded.hold(again, release))
          .as("released after the first call")
          .isEqualTo("held");
      assertThat(again.getCount()).isZero();
    } finally {
      release.countDown();
      first.shutdownNow();
    }
  }

  /** Concurrent calls run one at a time: no lost update, never two inside. */
  @Test
  void theAdviceExcludesConcurrentCalls() throws Exception {
    int threads = 4;
    int perThread = 10;
    int before = guarded.counter();
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      CountDownLatch start = new CountDownLatch(1);
      List<Future<?>> all = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        all.add(
            pool.submit(
                () -> {
                  start.await();
                  for (int i = 0; i < perThread; i++) {
                    guarded.increment();
                  }
                  return null;
                }));
      }
      start.countDown();
      for (Future<?> f : all) {
        f.get(60, TimeUnit.SECONDS);
      }
    } finally {
      pool.shutdownNow();
    }
    assertThat(guarded.mostInside()).isEqualTo(1);
    assertThat(guarded.counter() - before).isEqualTo(threads * perThread);
  }

  /** The kernel's reentrancy rule reaches the advice: a nested call on the same key fails. */
  @Test
  void theAdviceKeepsTheKernelsReentrancyRule() {
    assertThatThrownBy(() -> guarded.nested(() -> guarded.nested(() -> {})))
        .isInstanceOf(LockReentrancyException.class);
  }
}
