package io.hostloom.quarkus.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.hostloom.locking.DistributedLock;
import io.hostloom.locking.LockHandle;
import io.hostloom.locking.LockNotAcquiredException;
import io.hostloom.locking.LockRetryPolicy;
import io.hostloom.locking.LockingOptions;
import io.hostloom.micrometer.LockMetricsListener;
import io.hostloom.quarkus.internal.HostLoomRuntime;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The extension's lock over a real redis-server: exclusion, @WithLock, settings, meters. */
@QuarkusTest
@QuarkusTestResource(RedisServerResource.class)
class RedisLockTest {
  @Inject DistributedLock lock;
  @Inject NightlyReport report;
  @Inject MeterRegistry meters;
  @Inject HostLoomRuntime runtime;

  @Test
  void startUpWarmedTheBackendUp() {
    assertThat(runtime.warmedUp()).containsExactly(runtime.backend().orElseThrow());
  }

  @Test
  void theSettingsReachTheLocksOptions() {
    LockingOptions o = lock.options().orElseThrow();
    assertThat(o.namespace()).isEqualTo("quarkus-it");
    assertThat(o.defaultLease()).isEqualTo(Duration.ofSeconds(12));
    assertThat(o.retry()).isEqualTo(LockRetryPolicy.interval(5, Duration.ofMillis(20)));
    assertThat(lock.describe().toString()).contains("redis");
  }

  @Test
  void theLockBeanExcludesThroughRedis() {
    try (LockHandle first = lock.acquire("bean-key")) {
      assertThat(first.fencingToken()).isPositive();
      assertThat(lock.tryAcquire("bean-key")).isEmpty();
      // the record is on the server, under the configured key prefix
      assertThat(RedisServerResource.server().command("KEYS", "qit*")).contains("bean-key");
    }
    Optional<LockHandle> again = lock.tryAcquire("bean-key");
    assertThat(again).isPresent();
    again.get().close();
  }

  @Test
  void withLockExcludesTwoConcurrentCalls() throws Exception {
    CountDownLatch finish = new CountDownLatch(1);
    ExecutorService pool = Executors.newFixedThreadPool(2);
    try {
      Future<?> first =
          pool.submit(
              () -> {
                report.render(finish);
                return null;
              });
      // the first call holds the key once its record is on the server
      awaitKey("nightly-report");
      Future<?> second =
          pool.submit(
              () -> {
                report.render(finish);
                return null;
              });
      assertThatThrownBy(() -> second.get(10, TimeUnit.SECONDS))
          .hasCauseInstanceOf(LockNotAcquiredException.class);
      finish.countDown();
      first.get(10, TimeUnit.SECONDS);
    } finally {
      finish.countDown();
      pool.shutdownNow();
    }
    assertThat(report.mostAtOnce()).isEqualTo(1);
    // released: the next call runs
    report.render(new CountDownLatch(0));
  }

  @Test
  void acquisitionsAreMetered() {
    try (LockHandle h = lock.acquire("metered")) {
      assertThat(h.isHeld()).isTrue();
    }
    assertThat(meters.find(LockMetricsListener.ACQUIRE_DURATION).meters()).isNotEmpty();
  }

  /** A polling wait, bounded: the first call's record is on the server. */
  private static void awaitKey(String key) throws InterruptedException {
    long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (!RedisServerResource.server().command("KEYS", "qit*").contains(key)) {
      assertThat(System.nanoTime()).as("the key %s on the server", key).isLessThan(end);
      TimeUnit.MILLISECONDS.sleep(5);
    }
  }
}
