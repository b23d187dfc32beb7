package io.hostloom.locking;

import static io.hostloom.locking.KernelFixture.await;
import static io.hostloom.locking.KernelFixture.failure;
import static io.hostloom.locking.KernelFixture.lease;
import static io.hostloom.locking.KernelFixture.onThread;
import static io.hostloom.locking.KernelFixture.opts;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.hostloom.locking.testing.CountingLockBackend.Operation;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/** Contract D (31–45) and E (46–49): abandon the wait, never cancel the sent command. */
class AbandonedAcquisitionTest {
  private final KernelFixture fx = new KernelFixture();

  private static Duration ms(long ms) {
    return Duration.ofMillis(ms);
  }

  @Test
  void aPreInterruptedCallerSendsNothingAndRecordsNothing() {
    DistributedLock lock = fx.lock();
    Thread.currentThread().interrupt();
    try {
      assertThatThrownBy(() -> lock.tryAcquire("k")).isInstanceOf(LockInterruptedException.class);
      assertThat(Thread.currentThread().isInterrupted()).isTrue();
    } finally {
      Thread.interrupted();
    }
    assertThat(fx.backend.calls()).isEmpty();
    assertThat(fx.events.matching("acquire")).isEmpty();
  }

  @Test
  void cancellingWhileTheReplyIsOutstandingEndsTheWaitButNotTheCommand() {
    DistributedLock lock = fx.lock();
    fx.faults.holdReplies();
    CompletableFuture<Optional<LockHandle>> f = lock.tryAcquireAsync("k");
    f.cancel(false);
    assertThat(f).isCancelled();
    assertThat(fx.backend.acquireFutures.get(0)).isNotDone(); // not cancelled
    assertThat(fx.events.matching("acquire:")).containsExactly("acquire:ABANDONED:1");
  }

  @Test
  void aLateGrantIsReleasedOnceWithTheSameKeyAndOwner() {
    DistributedLock lock = fx.lock();
    fx.faults.holdReplies();
    CompletableFuture<Optional<LockHandle>> f = lock.tryAcquireAsync("k");
    f.cancel(false);
    f.cancel(false);
    fx.faults.deliverReplies();
    lock.close(); // a third "abandon": still one release

    assertThat(fx.backend.calls("release")).hasSize(1);
    RecordingBackend.Call acquire = fx.backend.calls("acquire").get(0);
    RecordingBackend.Call release = fx.backend.calls("release").get(0);
    assertThat(release.key()).isEqualTo("test:lock:k").isEqualTo(acquire.key());
    assertThat(release.owner()).isEqualTo(acquire.owner());
    assertThat(fx.events.matching("orphan:")).containsExactly("orphan:RELEASED");
    assertThat(fx.log.containing("3108"))
        .singleElement()
        .asString()
        .startsWith("DEBUG")
        .contains("'k'")
        .contains("released")
        .doesNotContain(acquire.owner());
    assertThat(fx.memory.liveCount()).isZero();
  }

  @Test
  void aBlockingCallerInterruptedWhileWaitingGetsLockInterruptedAndTheGrantIsReleased() {
    DistributedLock lock = fx.lock();
    fx.faults.holdReplies();
    Thread[] caller = new Thread[1];
    CompletableFuture<Optional<LockHandle>> f =
        onThread(
            () -> {
              caller[0] = Thread.currentThread();
              return lock.tryAcquire("k");
            });
    await(() -> fx.faults.heldReplyCount() == 1 && caller[0] != null);
    caller[0].interrupt();
    assertThat(failure(f)).isInstanceOf(LockInterruptedException.class);
    fx.faults.deliverReplies();
    assertThat(fx.events.matching("orphan:")).containsExactly("orphan:RELEASED");
  }

  @Test
  void aLateRefusalReleasesNothing() {
    DistributedLock lock = fx.lock();
    LockHandle other = fx.lock().tryAcquire("k").orElseThrow();
    fx.faults.holdReplies();
    CompletableFuture<Optional<LockHandle>> f = lock.tryAcquireAsync("k");
    f.cancel(false);
    fx.faults.deliverReplies();
    assertThat(fx.backend.calls("release")).isEmpty();
    assertThat(fx.events.matching("orphan:")).isEmpty();
    other.close();
  }

  @Test
  void maxWaitExpiringOnAnOutstandingReplyIsNotAcquiredAndTheLateGrantIsReleased() {
    DistributedLock lock = fx.lock();
    fx.faults.holdReplies();
    CompletableFuture<Optional<LockHandle>> t =
        lock.tryAcquireAsync("k", opts().maxWait(ms(100)).build());
    CompletableFuture<String> e =
        lock.executeWithLockAsync(
            "j", opts().maxWait(ms(100)).build(), h -> CompletableFuture.completedFuture("ran"));
    fx.clock.advance(ms(100));
    assertThat(KernelFixture.value(t)).isEmpty();
    assertThat(failure(e))
        .isInstanceOfSatisfying(
            LockNotAcquiredException.class, x -> assertThat(x.attempts()).isEqualTo(1));
    fx.faults.deliverReplies();
    assertThat(fx.backend.calls("release")).hasSize(2);
    assertThat(fx.events.matching("orphan:")).containsExactly("orphan:RELEASED", "orphan:RELEASED");
  }

  @Test
  void timeoutOrOtherFailuresReleaseOnceWithoutMakingTheCallerWait() {
    for (LockFailureKind kind :
        new LockFailureKind[] {LockFailureKind.TIMEOUT, LockFailureKind.OTHER}) {
      KernelFixture f2 = new KernelFixture();
      DistributedLock lock = f2.lock();
      f2.faults.applyThenFail(1, kind, Operation.ACQUIRE).holdReplies(Operation.RELEASE);
      assertThatThrownBy(() -> lock.tryAcquire("k"))
          .isInstanceOfSatisfying(
              LockBackendUnavailableException.class, e -> assertThat(e.kind()).isEqualTo(kind));
      assertThat(f2.backend.calls("release")).hasSize(1);
      assertThat(f2.events.matching("orphan:")).isEmpty(); // the release reply is still held
      f2.faults.deliverReplies();
      assertThat(f2.events.matching("orphan:")).containsExactly("orphan:RELEASED");
    }
  }

  @Test
  void unavailableReleasesNothing() {
    DistributedLock lock = fx.lock();
    fx.faults.failNext(1, LockFailureKind.UNAVAILABLE, Operation.ACQUIRE);
    assertThatThrownBy(() -> lock.tryAcquire("k"))
        .isInstanceOf(LockBackendUnavailableException.class);
    assertThat(fx.backend.calls("release")).isEmpty();
  }

  @Test
  void aReplyThatNeverArrivesOwnsOneTimerAndReleasesNothingUntilTheLeaseEnd() {
    DistributedLock lock = fx.lock();
    fx.faults.holdRequests();
    CompletableFuture<Optional<LockHandle>> f = lock.tryAcquireAsync("k", lease(ms(1000)));
    assertThat(fx.clock.pendingTimers()).isEqualTo(1);
    fx.clock.advance(ms(1000).minusNanos(1));
    assertThat(fx.backend.acquireFutures.get(0)).isNotDone();
    assertThat(fx.backend.calls("release")).isEmpty();
    assertThat(fx.events.matching("acquire:")).isEmpty();

    fx.clock.advance(Duration.ofNanos(1)); // request + lease: the call is cancelled
    assertThat(fx.backend.acquireFutures.get(0)).isCancelled();
    assertThat(fx.clock.pendingTimers()).isZero();
    assertThat(failure(f))
        .isInstanceOfSatisfying(
            LockBackendUnavailableException.class,
            e -> {
              assertThat(e.kind()).isEqualTo(LockFailureKind.TIMEOUT);
              assertThat(e.getCause()).isInstanceOf(CancellationException.class);
            });
    // a call that ended cancelled may hold: one release (nothing was applied: absent)
    assertThat(fx.backend.calls("release")).hasSize(1);
    assertThat(fx.events.matching("orphan:")).containsExactly("orphan:ABSENT");
    fx.faults.releaseRequests();
    assertThat(fx.faults.calls(Operation.ACQUIRE)).isZero(); // dropped, never applied
  }

  @Test
  void orphanReleaseIsBoundedByMinOfLeaseAndFiveSeconds() {
    DistributedLock lock = fx.lock();
    fx.faults.holdReplies(Operation.ACQUIRE).holdRequests(Operation.RELEASE);
    CompletableFuture<Optional<LockHandle>> f = lock.tryAcquireAsync("k");
    f.cancel(false);
    fx.faults.deliverReplies(); // granted -> release sent, but it hangs
    fx.clock.advance(Duration.ofSeconds(5).minusNanos(1));
    assertThat(fx.events.matching("orphan:")).isEmpty();
    fx.clock.advance(Duration.ofNanos(1));
    assertThat(fx.events.matching("orphan:")).containsExactly("orphan:FAILED");
    assertThat(fx.log.containing("3108")).singleElement().asString().contains("failed");
    assertThat(fx.log.throwables()).hasAtLeastOneElementOfType(CancellationException.class);

    KernelFixture f2 = new KernelFixture();
    DistributedLock short1 = f2.lock();
    f2.faults.holdReplies(Operation.ACQUIRE).holdRequests(Operation.RELEASE);
    CompletableFuture<Optional<LockHandle>> g = short1.tryAcquireAsync("k", lease(ms(1000)));
    g.cancel(false);
    f2.faults.deliverReplies();
    f2.clock.advance(ms(1000));
    assertThat(f2.events.matching("orphan:")).containsExactly("orphan:FAILED");
  }

  @Test
  void aSynchronousBackendLeavesNoAcquisitionTimers() {
    DistributedLock lock = fx.lock();
    LockHandle h = lock.tryAcquire("k").orElseThrow();
    assertThat(fx.clock.pendingTimers()).isEqualTo(1); // the handle's own lease timer
    assertThat(fx.lock().tryAcquire("k")).isEmpty();
    assertThat(fx.clock.pendingTimers()).isEqualTo(1);
    h.close();
    assertThat(fx.clock.pendingTimers()).isZero();
  }

  // ---------------------------------------------------------------- E: lock disposal

  @Test
  void closeIsIdempotentAndLaterCallsFailEvenWhenDisabled() {
    for (DistributedLock lock : new DistributedLock[] {fx.lock(), fx.lock(b -> b.enabled(false))}) {
      lock.close();
      lock.close();
      assertThatThrownBy(() -> lock.tryAcquire("k")).isInstanceOf(IllegalStateException.class);
      assertThatThrownBy(() -> lock.executeWithLock("k", h -> 1))
          .isInstanceOf(IllegalStateException.class);
      assertThatThrownBy(() -> lock.acquireAsync("k")).isInstanceOf(IllegalStateException.class);
      assertThatThrownBy(() -> lock.tryAcquire("")).isInstanceOf(IllegalArgumentException.class);
    }
  }

  @Test
  void anAcquisitionInFlightAtCloseEndsWithIllegalStateAndIsReleased() {
    DistributedLock lock = fx.lock();
    fx.faults.holdRequests();
    CompletableFuture<LockHandle> f = lock.acquireAsync("k");
    lock.close();
    assertThat(failure(f)).isInstanceOf(IllegalStateException.class);
    assertThat(fx.backend.acquireFutures.get(0)).isCancelled();
    assertThat(fx.events.matching("orphan:")).containsExactly("orphan:ABSENT");
    assertThat(fx.events.matching("acquire:")).containsExactly("acquire:ABANDONED:1");
  }

  @Test
  void anAcquisitionWaitingBetweenAttemptsEndsAtClose() {
    DistributedLock lock = fx.lock();
    LockHandle other = fx.lock().tryAcquire("k").orElseThrow();
    CompletableFuture<LockHandle> f =
        lock.acquireAsync("k", opts().retry(LockRetryPolicy.interval(3, ms(100))).build());
    lock.close();
    assertThat(failure(f)).isInstanceOf(IllegalStateException.class);
    fx.clock.advance(Duration.ofSeconds(1));
    assertThat(fx.backend.calls("acquire")).hasSize(2);
    other.close();
  }

  @Test
  void handlesOutliveTheirLock() {
    DistributedLock lock = fx.lock();
    LockHandle h = lock.tryAcquire("k").orElseThrow();
    lock.close();
    assertThat(h.isHeld()).isTrue();
    assertThat(h.extend(Duration.ofSeconds(10))).isTrue();
    h.close();
    assertThat(fx.memory.liveCount()).isZero();
  }
}
