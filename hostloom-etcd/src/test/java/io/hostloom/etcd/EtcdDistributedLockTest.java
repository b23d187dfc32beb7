package io.hostloom.etcd;

import static org.assertj.core.api.Assertions.assertThat;

import io.hostloom.locking.DistributedLock;
import io.hostloom.locking.LockHandle;
import io.hostloom.locking.LockOptions;
import io.hostloom.locking.LockRetryPolicy;
import io.hostloom.locking.LockingOptions;
import io.hostloom.locking.spi.AcquireOutcome;
import io.hostloom.locking.spi.LockBackend;
import io.hostloom.locking.spi.ReleaseSignal;
import io.hostloom.locking.testing.ForwardingLockBackend;
import io.hostloom.testkit.TestTiming;
import io.hostloom.testkit.kernel.RealBackendExclusionSuite;
import java.time.Duration;
import java.util.OptionalInt;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
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
class EtcdDistributedLockTest extends RealBackendExclusionSuite {
  private static final Duration WAIT = Duration.ofSeconds(20);

  private static EtcdLockBackend backend() {
    return EtcdLockBackend.builder().endpoints(EtcdServerProcess.shared().endpoint()).build();
  }

  @Override
  protected LockBackend newBackend() {
    return backend();
  }

  @Override
  protected OptionalInt pendingWaits(LockBackend backend) {
    return OptionalInt.of(((EtcdLockBackend) backend).releaseWaiters());
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
        // the first attempt goes out unsubscribed; once refused the kernel subscribes and asks
        // again before it waits, so a release in between is not missed
        TestTiming.await(
            "the waiter's first attempt and its re-check were refused",
            () -> waiterBackend.refused.get() == 2 && waiterEtcd.releaseWaiters() == 1,
            WAIT);
        assertThat(waiting).isNotDone();
        held.close();
        try (LockHandle granted = TestTiming.get(waiting, WAIT)) {
          assertThat(granted.isHeld()).isTrue();
          assertThat(granted.fencingToken()).isGreaterThan(held.fencingToken());
          // refused, re-checked once subscribed, then granted on the release: no poll
          assertThat(waiterBackend.acquires).hasValue(3);
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
