package io.hostloom.zookeeper;

import static org.assertj.core.api.Assertions.assertThat;

import io.hostloom.locking.DistributedLock;
import io.hostloom.locking.LockHandle;
import io.hostloom.locking.LockOptions;
import io.hostloom.locking.LockRetryPolicy;
import io.hostloom.locking.LockingOptions;
import io.hostloom.locking.spi.AcquireOutcome;
import io.hostloom.locking.spi.LockBackend;
import io.hostloom.locking.spi.ReleaseSignal;
import io.hostloom.locking.spi.support.DelegatingLockBackend;
import io.hostloom.testkit.TestTiming;
import io.hostloom.testkit.kernel.RealBackendExclusionSuite;
import java.time.Duration;
import java.util.OptionalInt;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The lock kernel over {@link ZooKeeperLockBackend} on a real server, with real threads: exclusion
 * across two lock instances (two sessions), and a waiter woken by the watch, not by its next poll.
 */
class ZooKeeperDistributedLockTest extends RealBackendExclusionSuite {
  private static final Duration WAIT = Duration.ofSeconds(10);

  private static ZooKeeperLockBackend backend() {
    return ZooKeeperLockBackend.builder()
        .connectString(ZooKeeperTestServer.shared().connectString())
        .build();
  }

  @Override
  protected LockBackend newBackend() {
    return backend();
  }

  @Override
  protected OptionalInt pendingWaits(LockBackend backend) {
    return OptionalInt.of(((ZooKeeperLockBackend) backend).releaseWaiters());
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
        RepliesCounted counted = new RepliesCounted(waiterBackend);
        DistributedLock waiter = DistributedLock.create(options, counted)) {
      TestTiming.await("the waiter's watch is set", waiterBackend::releaseSignalUp, WAIT);
      LockHandle held = holder.acquire(key);
      waiterBackend.onRoundTrip(rt -> waiterRoundTrips.incrementAndGet());
      CompletableFuture<LockHandle> waiting = waiter.acquireAsync(key, LockOptions.DEFAULTS);
      // the first attempt goes out unsubscribed; once refused the kernel subscribes and asks
      // again before it waits (a release in between is not missed): a wait registered alone does
      // not mean the re-check's round trip was made (counting it after the release was flaky)
      TestTiming.await(
          "the waiter's first attempt and its re-check were refused",
          () -> counted.acquireReplies.get() == 2 && waiterBackend.releaseWaiters() == 1,
          WAIT);
      assertThat(waiterRoundTrips.get())
          .as("the refused first attempt and the re-check once subscribed")
          .isEqualTo(2);
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

  /** The waiter's backend, counting the acquire replies before the kernel sees them. */
  private static final class RepliesCounted extends DelegatingLockBackend
      implements ReleaseSignal, AutoCloseable {
    final AtomicInteger acquireReplies = new AtomicInteger();
    private final ZooKeeperLockBackend backend;

    RepliesCounted(ZooKeeperLockBackend backend) {
      this.backend = backend;
    }

    @Override
    protected LockBackend delegate() {
      return backend;
    }

    @Override
    public CompletableFuture<AcquireOutcome> acquire(
        String key, String owner, String data, Duration lease) {
      return super.acquire(key, owner, data, lease)
          .whenComplete((o, e) -> acquireReplies.incrementAndGet());
    }

    @Override
    public CompletableFuture<Boolean> awaitRelease(String key, Duration maxWait) {
      return backend.awaitRelease(key, maxWait);
    }

    @Override
    public String name() {
      return backend.name();
    }

    @Override
    public void close() {
      // the wrapped backend is a resource of its own
    }
  }
}
