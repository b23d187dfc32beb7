package io.hostloom.zookeeper;

import static org.assertj.core.api.Assertions.assertThat;

import io.hostloom.locking.DistributedLock;
import io.hostloom.locking.LockHandle;
import io.hostloom.locking.LockNotAcquiredException;
import io.hostloom.locking.LockOptions;
import io.hostloom.locking.LockRetryPolicy;
import io.hostloom.locking.LockingOptions;
import io.hostloom.testkit.TestTiming;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The lock kernel over {@link ZooKeeperLockBackend} on a real server, with real threads: exclusion
 * across two lock instances (two sessions), and a waiter woken by the watch, not by its next poll.
 */
class ZooKeeperDistributedLockTest {
  private static final Duration WAIT = Duration.ofSeconds(10);

  private static ZooKeeperLockBackend backend() {
    return ZooKeeperLockBackend.builder()
        .connectString(ZooKeeperTestServer.shared().connectString())
        .build();
  }

  @Test
  void twoLockInstancesExcludeEachOtherAcrossRealThreads() throws Exception {
    int threadsPerInstance = 3;
    int rounds = 10;
    String key = "job-" + UUID.randomUUID();
    AtomicInteger inside = new AtomicInteger();
    AtomicInteger overlaps = new AtomicInteger();
    List<Long> tokens = new CopyOnWriteArrayList<>(); // appended inside the critical section
    ExecutorService pool = Executors.newFixedThreadPool(2 * threadsPerInstance);
    try (ZooKeeperLockBackend b1 = backend();
        ZooKeeperLockBackend b2 = backend();
        DistributedLock l1 = DistributedLock.create(LockingOptions.of("excl"), b1);
        DistributedLock l2 = DistributedLock.create(LockingOptions.of("excl"), b2)) {
      List<Future<?>> workers = new ArrayList<>();
      for (int t = 0; t < 2 * threadsPerInstance; t++) {
        DistributedLock lock = t % 2 == 0 ? l1 : l2;
        workers.add(
            pool.submit(
                () -> {
                  int done = 0;
                  while (done < rounds) {
                    try {
                      lock.runWithLock(
                          key,
                          h -> {
                            if (inside.incrementAndGet() != 1) {
                              overlaps.incrementAndGet();
                            }
                            tokens.add(h.fencingToken());
                            inside.decrementAndGet();
                          });
                      done++;
                    } catch (LockNotAcquiredException e) {
                      // the retry budget ran out: try again
                    }
                  }
                  return null;
                }));
      }
      for (Future<?> w : workers) {
        w.get(120, TimeUnit.SECONDS);
      }
      assertThat(overlaps).hasValue(0);
      assertThat(tokens).hasSize(2 * threadsPerInstance * rounds);
      for (int i = 1; i < tokens.size(); i++) {
        assertThat(tokens.get(i)).as("token of grant %d", i).isGreaterThan(tokens.get(i - 1));
      }
      assertThat(b1.releaseWaiters() + b2.releaseWaiters()).isZero();
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void aWaiterIsGrantedOnReleaseNotAtItsNextPoll() throws Exception {
    // one retry after a minute: only the release signal can end the wait within the test's bound
    LockingOptions options =
        LockingOptions.builder()
            .namespace("wake")
            .retry(LockRetryPolicy.interval(1, Duration.ofMinutes(1)))
            .build();
    String key = "k-" + UUID.randomUUID();
    AtomicInteger waiterRoundTrips = new AtomicInteger();
    try (ZooKeeperLockBackend holderBackend = backend();
        ZooKeeperLockBackend waiterBackend = backend();
        DistributedLock holder = DistributedLock.create(options, holderBackend);
        DistributedLock waiter = DistributedLock.create(options, waiterBackend)) {
      TestTiming.await("the waiter's watch is set", waiterBackend::releaseSignalUp, WAIT);
      LockHandle held = holder.acquire(key);
      waiterBackend.onRoundTrip(rt -> waiterRoundTrips.incrementAndGet());
      CompletableFuture<LockHandle> waiting = waiter.acquireAsync(key, LockOptions.DEFAULTS);
      TestTiming.await(
          "the waiter's first attempt was refused",
          () -> waiterBackend.releaseWaiters() == 1,
          WAIT);
      assertThat(waiting).isNotDone();
      int beforeRelease = waiterRoundTrips.get();
      held.close();
      try (LockHandle granted = TestTiming.get(waiting, WAIT)) {
        assertThat(granted.isHeld()).isTrue();
        assertThat(granted.fencingToken()).isGreaterThan(held.fencingToken());
        assertThat(waiterRoundTrips.get() - beforeRelease)
            .as("round trips after the release: the read and the grant, no poll")
            .isEqualTo(2);
      }
      assertThat(waiterBackend.releaseWaiters()).isZero();
    }
  }
}
