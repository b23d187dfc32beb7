package io.hostloom.etcd;

import static org.assertj.core.api.Assertions.assertThat;

import io.hostloom.locking.DistributedLock;
import io.hostloom.locking.LockHandle;
import io.hostloom.locking.LockNotAcquiredException;
import io.hostloom.locking.LockOptions;
import io.hostloom.locking.LockRetryPolicy;
import io.hostloom.locking.LockingOptions;
import io.hostloom.locking.spi.AcquireOutcome;
import io.hostloom.locking.spi.ReleaseSignal;
import io.hostloom.locking.testing.ForwardingLockBackend;
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
 * The lock kernel over {@link EtcdLockBackend} on a real etcd, with real threads: exclusion across
 * two lock instances (each its own client), and a waiter woken by the watch, not by its next poll.
 *
 * <p>The testkit's {@code KernelConformanceSuite} is not run here: it drives expiry with a manual
 * clock, which etcd's leases do not follow (its lost-lease and stale-owner scenarios need the
 * backend to expire on that clock). The kernel's timing is covered there over the in-memory
 * backend; real-server expiry by the backend suites here.
 */
class EtcdDistributedLockTest {
  private static final Duration WAIT = Duration.ofSeconds(20);

  private static EtcdLockBackend backend() {
    return EtcdLockBackend.builder().endpoints(EtcdServerProcess.shared().endpoint()).build();
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
    try (EtcdLockBackend b1 = backend();
        EtcdLockBackend b2 = backend();
        var l1 = DistributedLock.create(LockingOptions.of("excl"), b1);
        var l2 = DistributedLock.create(LockingOptions.of("excl"), b2)) {
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
    try (EtcdLockBackend holderBackend = backend();
        EtcdLockBackend waiterEtcd = backend()) {
      AcquireCounter waiterBackend = new AcquireCounter(waiterEtcd);
      try (var holder = DistributedLock.create(options, holderBackend);
          var waiter = DistributedLock.create(options, waiterBackend)) {
        TestTiming.await("watch confirmed", waiterEtcd::releaseSignalUp, WAIT);
        LockHandle held = holder.acquire(key);
        CompletableFuture<LockHandle> waiting = waiter.acquireAsync(key, LockOptions.DEFAULTS);
        TestTiming.await(
            "the waiter's first attempt was refused",
            () -> waiterBackend.refused.get() == 1 && waiterEtcd.releaseWaiters() == 1,
            WAIT);
        assertThat(waiting).isNotDone();
        held.close();
        try (LockHandle granted = TestTiming.get(waiting, WAIT)) {
          assertThat(granted.isHeld()).isTrue();
          assertThat(granted.fencingToken()).isGreaterThan(held.fencingToken());
          assertThat(waiterBackend.acquires).hasValue(2); // refused, then granted: no poll
        }
        assertThat(waiterEtcd.releaseWaiters()).isZero();
      }
    }
  }

  /** Counts acquisitions and keeps the release signal visible to the kernel. */
  private static final class AcquireCounter extends ForwardingLockBackend implements ReleaseSignal {
    final AtomicInteger acquires = new AtomicInteger();
    final AtomicInteger refused = new AtomicInteger();
    private final EtcdLockBackend etcd;

    AcquireCounter(EtcdLockBackend etcd) {
      super(etcd);
      this.etcd = etcd;
    }

    @Override
    public CompletableFuture<AcquireOutcome> acquire(
        String key, String owner, String data, Duration lease) {
      acquires.incrementAndGet();
      return super.acquire(key, owner, data, lease)
          .whenComplete(
              (o, e) -> {
                if (o != null && !o.granted()) {
                  refused.incrementAndGet();
                }
              });
    }

    @Override
    public CompletableFuture<Boolean> awaitRelease(String key, Duration maxWait) {
      return etcd.awaitRelease(key, maxWait);
    }
  }
}
