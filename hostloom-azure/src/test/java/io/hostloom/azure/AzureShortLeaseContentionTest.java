package io.hostloom.azure;

import static org.assertj.core.api.Assertions.assertThat;

import io.hostloom.locking.spi.AcquireOutcome;
import io.hostloom.locking.spi.LockBackend;
import io.hostloom.testkit.HistoryReport;
import io.hostloom.testkit.LockHistory;
import io.hostloom.testkit.TestTiming;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Two instances with separate clients race on two keys from many threads with one-second leases:
 * holders release, extend, or vanish without releasing (so others take over after expiry), while a
 * reader keeps evicting expired claims. The history checker sees no overlapping holds and strictly
 * increasing fencing tokens; the conformance suite's contention test covers long leases.
 */
class AzureShortLeaseContentionTest {
  private static final Duration LEASE = Duration.ofSeconds(1);
  private static final Duration RUN = Duration.ofSeconds(12);
  private static final int THREADS = 8;

  @Test
  void releasesExtensionsAbandonmentsAndEvictionsNeverOverlap() throws Exception {
    String container = Azurite.shared().newContainer("short-leases").getBlobContainerName();
    LockBackend[] instances = {
      Azurite.shared().backend(container).build(), Azurite.shared().backend(container).build()
    };
    List<String> keys = List.of("short:" + UUID.randomUUID(), "short:" + UUID.randomUUID());
    LockHistory history = new LockHistory();
    AtomicBoolean stop = new AtomicBoolean();
    AtomicInteger abandoned = new AtomicInteger();
    AtomicInteger extended = new AtomicInteger();
    ExecutorService pool = Executors.newFixedThreadPool(THREADS + 1);
    List<Future<?>> tasks = new ArrayList<>();
    try {
      for (int t = 0; t < THREADS; t++) {
        int thread = t;
        tasks.add(
            pool.submit(
                () -> {
                  contend(thread, instances[thread % 2], keys, history, stop, abandoned, extended);
                  return null;
                }));
      }
      tasks.add(
          pool.submit(
              () -> {
                while (!stop.get()) {
                  for (String k : keys) {
                    TestTiming.get(instances[1].read(k), Duration.ofSeconds(10));
                  }
                  TestTiming.pass(Duration.ofMillis(10));
                }
                return null;
              }));
      TestTiming.pass(RUN);
      stop.set(true);
      for (Future<?> f : tasks) {
        f.get(TestTiming.scaled(Duration.ofSeconds(30)).toNanos(), TimeUnit.NANOSECONDS);
      }
    } finally {
      stop.set(true);
      pool.shutdownNow();
    }

    HistoryReport report = history.check();
    report.assertNoViolations();
    assertThat(report.holds()).isGreaterThan(20);
    assertThat(abandoned.get()).as("takeovers of abandoned claims happened").isPositive();
    assertThat(extended.get()).isPositive();
  }

  private static void contend(
      int thread,
      LockBackend b,
      List<String> keys,
      LockHistory history,
      AtomicBoolean stop,
      AtomicInteger abandoned,
      AtomicInteger extended) {
    ThreadLocalRandom random = ThreadLocalRandom.current();
    for (int round = 0; !stop.get(); round++) {
      String key = keys.get(random.nextInt(keys.size()));
      String owner = "t" + thread + "-r" + round;
      long sent = LockHistory.now();
      AcquireOutcome o = TestTiming.get(b.acquire(key, owner, "", LEASE), Duration.ofSeconds(10));
      if (!o.granted()) {
        TestTiming.pass(Duration.ofMillis(random.nextLong(5, 40)));
        continue;
      }
      LockHistory.Hold hold = history.enter(key, owner, o.fencingToken(), sent, LEASE);
      int fate = random.nextInt(10);
      if (fate < 2) { // vanish: no exit, no release; the claim must expire before anyone else holds
        abandoned.incrementAndGet();
        continue;
      }
      if (fate < 5) {
        TestTiming.pass(Duration.ofMillis(random.nextLong(300, 800)));
        long s = LockHistory.now();
        if (TestTiming.get(b.extend(key, owner, LEASE), Duration.ofSeconds(10)).extended()) {
          hold.extended(s, LEASE);
          extended.incrementAndGet();
        }
      }
      TestTiming.pass(Duration.ofMillis(random.nextLong(0, 20)));
      hold.exit();
      TestTiming.get(b.release(key, owner), Duration.ofSeconds(10));
    }
  }
}
