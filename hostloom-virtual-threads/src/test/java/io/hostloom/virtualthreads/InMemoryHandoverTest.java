package io.hostloom.virtualthreads;

import static org.assertj.core.api.Assertions.assertThat;

import io.hostloom.locking.DistributedLock;
import io.hostloom.locking.LockHandle;
import io.hostloom.locking.LockOptions;
import io.hostloom.locking.LockRetryPolicy;
import io.hostloom.locking.LockingOptions;
import io.hostloom.locking.memory.InMemoryLockBackend;
import io.hostloom.locking.time.LockClock;
import io.hostloom.testkit.TestTiming;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * A thousand virtual threads blocked in {@code acquire} on one key of the in-memory backend, whose
 * release signal wakes <em>every</em> waiter of the key: which one wins a release is not defined,
 * so what is checked is the handover the kernel guarantees on every backend. Each release lets
 * exactly one waiter in (holds never overlap), fencing tokens strictly increase in the order of the
 * grants, every waiter is served once within its wait (only releases end the waits: no poll falls
 * due), no release wait is left behind, and no virtual thread is pinned while they wait.
 */
class InMemoryHandoverTest {
  private static final int WAITERS = 1_000;
  private static final Duration WAIT = Duration.ofSeconds(60);

  @Test
  void eachReleaseServesExactlyOneOfAThousandVirtualThreadWaiters() throws Exception {
    LockOptions onlyWokenByRelease =
        LockOptions.builder()
            .lease(Duration.ofSeconds(30))
            .maxWait(Duration.ofMinutes(20))
            .retry(LockRetryPolicy.interval(1_000_000, Duration.ofMinutes(10)))
            .build();
    InMemoryLockBackend backend = new InMemoryLockBackend(LockClock.system());
    List<Long> tokens = new CopyOnWriteArrayList<>(); // appended inside the critical section
    AtomicInteger inside = new AtomicInteger();
    AtomicInteger overlaps = new AtomicInteger();
    PinnedEventCheck pinning;
    try (DistributedLock lock = DistributedLock.create(LockingOptions.of("vt-handover"), backend);
        ExecutorService virtualThreads = Executors.newVirtualThreadPerTaskExecutor()) {
      // warm-up, not recorded: one virtual thread waits and is handed the key once (a class's first
      // loading can pin; see VirtualThreadExclusionSuite)
      LockHandle warm = lock.acquire("report", onlyWokenByRelease);
      Future<?> warmWaiter =
          virtualThreads.submit(() -> lock.acquire("report", onlyWokenByRelease).close());
      TestTiming.await("the warm-up waiter waits", () -> backend.waiterCount() == 1, WAIT);
      warm.close();
      warmWaiter.get(30, TimeUnit.SECONDS);

      pinning = PinnedEventCheck.start();
      LockHandle first = lock.acquire("report", onlyWokenByRelease);
      List<Future<?>> waiters = new ArrayList<>();
      for (int i = 0; i < WAITERS; i++) {
        waiters.add(
            virtualThreads.submit(
                () -> {
                  try (LockHandle h = lock.acquire("report", onlyWokenByRelease)) {
                    if (inside.incrementAndGet() != 1) {
                      overlaps.incrementAndGet();
                    }
                    tokens.add(h.fencingToken());
                    inside.decrementAndGet();
                  }
                }));
      }
      TestTiming.await("every waiter waits", () -> backend.waiterCount() == WAITERS, WAIT);

      first.close();
      for (Future<?> w : waiters) {
        w.get(300, TimeUnit.SECONDS);
      }

      assertThat(overlaps).hasValue(0);
      assertThat(tokens).hasSize(WAITERS).isSorted().doesNotHaveDuplicates();
      assertThat(tokens.get(0)).isGreaterThan(first.fencingToken());
      assertThat(backend.waiterCount()).as("release waits left behind").isZero();
    }
    pinning.assertNone("while " + WAITERS + " virtual threads waited on one in-memory key");
  }
}
