package io.hostloom.redis;

import static org.assertj.core.api.Assertions.assertThat;

import io.hostloom.locking.DistributedLock;
import io.hostloom.locking.LockHandle;
import io.hostloom.locking.LockOptions;
import io.hostloom.locking.LockRetryPolicy;
import io.hostloom.locking.LockingOptions;
import io.hostloom.testkit.TestTiming;
import io.hostloom.virtualthreads.PinnedEventCheck;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * Thousands of virtual-thread waiters on one key of one lock over a real Redis, served in the order
 * they began to wait, with no pinned virtual thread meanwhile.
 *
 * <p><b>What "in order" the kernel guarantees, and this tests.</b> Redis announces each release on
 * the key's channel; the backend's {@code ReleaseWaitRegistry.wakeOne} then wakes the <em>oldest
 * pending</em> release wait of that key in this process (waits are kept in the order they were
 * registered, which the kernel does before each attempt that may be followed by a wait), and that
 * waiter sends one attempt at once. So when nothing else competes (no poll falls due: one retry
 * after ten minutes; no newcomer's first attempt; one process), each release hands the key to the
 * longest-waiting waiter, and the grants follow the order the waits began. Not guaranteed, and not
 * claimed: order against a newcomer's first attempt or a poll (either may win the race), across
 * processes (each wakes its own oldest), or on the backends whose signal wakes every waiter of the
 * key (in-memory, JDBC, etcd, ZooKeeper: any woken waiter may win; see {@code
 * InMemoryHandoverTest}).
 */
class WaitersServedInReleaseOrderTest {
  private static final int WAITERS = 2_000;
  private static final Duration WAIT = Duration.ofSeconds(30);

  @Test
  void eachReleaseWakesTheOldestWaiterSoThousandsAreServedInTheOrderTheyBeganToWait()
      throws Exception {
    // one retry after ten minutes (within a longer maxWait, so the release signal is used):
    // within the test only a release can end a wait
    LockOptions onlyWokenByRelease =
        LockOptions.builder()
            .lease(Duration.ofSeconds(30))
            .maxWait(Duration.ofMinutes(20))
            .retry(LockRetryPolicy.interval(1, Duration.ofMinutes(10)))
            .build();
    String key = "fifo-" + UUID.randomUUID();
    List<Integer> served = new CopyOnWriteArrayList<>(); // appended inside the critical section
    AtomicInteger inside = new AtomicInteger();
    AtomicInteger overlaps = new AtomicInteger();
    PinnedEventCheck pinning;
    try (RedisLockBackend backend =
            RedisLockBackend.builder().uri(RedisServerProcess.shared().uri()).build();
        DistributedLock lock = DistributedLock.create(LockingOptions.of("vt-order"), backend);
        ExecutorService virtualThreads = Executors.newVirtualThreadPerTaskExecutor()) {
      ReleaseSignalTest.awaitSubscribed(backend);
      // warm-up, not recorded: one virtual thread waits and is handed the key once, so the classes
      // of that path are loaded (a class's first loading can pin; see VirtualThreadExclusionSuite)
      LockHandle warm = lock.acquire(key, onlyWokenByRelease);
      Future<?> warmWaiter =
          virtualThreads.submit(() -> lock.acquire(key, onlyWokenByRelease).close());
      TestTiming.await("the warm-up waiter waits", () -> backend.releaseWaiters() == 1, WAIT);
      warm.close();
      warmWaiter.get(30, TimeUnit.SECONDS);

      pinning = PinnedEventCheck.start();
      LockHandle first = lock.acquire(key, onlyWokenByRelease);
      List<Future<?>> waiters = new ArrayList<>();
      for (int i = 0; i < WAITERS; i++) {
        int id = i;
        waiters.add(
            virtualThreads.submit(
                () -> {
                  try (LockHandle h = lock.acquire(key, onlyWokenByRelease)) {
                    if (inside.incrementAndGet() != 1) {
                      overlaps.incrementAndGet();
                    }
                    served.add(id);
                    inside.decrementAndGet();
                  } // released on this virtual thread: the next release announcement
                }));
        int registered = i + 1;
        TestTiming.await(
            "waiter " + id + " waits", () -> backend.releaseWaiters() == registered, WAIT);
      }

      first.close();
      for (Future<?> w : waiters) {
        w.get(120, TimeUnit.SECONDS);
      }

      assertThat(overlaps).hasValue(0);
      assertThat(served).containsExactlyElementsOf(IntStream.range(0, WAITERS).boxed().toList());
      assertThat(backend.releaseWaiters()).as("release waits left behind").isZero();
    }
    pinning.assertNone("while " + WAITERS + " virtual threads waited on one Redis key");
  }
}
