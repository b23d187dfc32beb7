package io.hostloom.locking;

import static io.hostloom.locking.KernelFixture.lease;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.hostloom.locking.testing.CountingLockBackend.Operation;
import io.hostloom.locking.testing.ManualLockClock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/** Contract F (50–53) lease accounting and G (54–65) manual extension. */
class LeaseAndExtensionTest {
  private final KernelFixture fx = new KernelFixture();
  private static final Instant EPOCH = ManualLockClock.DEFAULT_EPOCH;

  private static Duration ms(long ms) {
    return Duration.ofMillis(ms);
  }

  private LockHandle acquireWithReplyAt(Duration replyAt, Duration lease) {
    DistributedLock lock = fx.lock();
    fx.faults.holdReplies();
    CompletableFuture<Optional<LockHandle>> f = lock.tryAcquireAsync("k", lease(lease));
    fx.clock.advance(replyAt);
    fx.faults.deliverReplies();
    return KernelFixture.value(f).orElseThrow();
  }

  @Test
  void theLeaseCountsFromTheRequestNotTheReply() {
    LockHandle h = acquireWithReplyAt(ms(400), ms(1000));
    assertThat(h.leaseEnd()).isEqualTo(EPOCH.plusMillis(1000));
    fx.clock.advance(ms(600).minusNanos(1));
    assertThat(h.isHeld()).isTrue();
    fx.clock.advance(Duration.ofNanos(1));
    assertThat(h.isHeld()).isFalse();
    assertThat(h.lost()).isCompletedWithValue(LossReason.EXPIRED);
    assertThat(fx.lock().tryAcquire("k")).isPresent();
  }

  @Test
  void holdDurationIsMeasuredFromTheRequest() {
    LockHandle h = acquireWithReplyAt(ms(400), ms(10_000));
    fx.clock.advance(ms(100));
    h.close();
    assertThat(fx.events.holdNanos).containsExactly(ms(500).toNanos());
  }

  @Test
  void holdThresholdWarningAtEightyPercentOnceAndNotAfterClose() {
    DistributedLock lock = fx.lock();
    LockHandle h = lock.tryAcquire("k", lease(ms(1000))).orElseThrow();
    fx.clock.advance(ms(799));
    assertThat(fx.log.containing("3103")).isEmpty();
    fx.clock.advance(ms(1));
    assertThat(fx.log.containing("3103")).singleElement().asString().startsWith("WARN");
    h.close();

    LockHandle closed = lock.tryAcquire("j", lease(ms(1000))).orElseThrow();
    closed.close();
    fx.clock.advance(ms(1000));
    assertThat(fx.log.containing("3103")).hasSize(1);
  }

  @Test
  void holdThresholdWarningAlsoFiresForAnAlreadyLostLease() {
    DistributedLock lock = fx.lock();
    LockHandle h = lock.tryAcquire("k", lease(ms(1000))).orElseThrow();
    // take the lease away behind the handle's back, then a refused extension loses it
    String owner = fx.backend.calls("acquire").get(0).owner();
    assertThat(fx.memory.release("test:lock:k", owner).join().released()).isTrue();
    assertThat(h.extend(ms(1000))).isFalse();
    assertThat(h.lost()).isCompletedWithValue(LossReason.EXTEND_REFUSED);
    fx.clock.advance(ms(800));
    assertThat(fx.log.containing("3103")).hasSize(1);
  }

  // ---------------------------------------------------------------- G

  @Test
  void extendRejectsNonPositiveLeasesEvenWhenLost() {
    LockHandle h = fx.lock().tryAcquire("k", lease(ms(100))).orElseThrow();
    fx.clock.advance(ms(100));
    assertThatThrownBy(() -> h.extend(Duration.ZERO)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> h.extendAsync(ms(-1))).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void extendOnALostOrClosedHandleIsFalseWithoutABackendCall() {
    DistributedLock lock = fx.lock();
    LockHandle lost = lock.tryAcquire("k", lease(ms(100))).orElseThrow();
    fx.clock.advance(ms(100));
    LockHandle closed = lock.tryAcquire("j").orElseThrow();
    closed.close();
    assertThat(lost.extend(ms(100))).isFalse();
    assertThat(closed.extend(ms(100))).isFalse();
    assertThat(fx.backend.calls("extend")).isEmpty();
  }

  @Test
  void extensionsAreCappedAtMaxLease() {
    DistributedLock lock =
        fx.lock(b -> b.maxLease(Duration.ofSeconds(2)).defaultLease(Duration.ofSeconds(1)));
    LockHandle h = lock.tryAcquire("k", lease(Duration.ofSeconds(10))).orElseThrow();
    assertThat(h.leaseEnd()).isEqualTo(EPOCH.plusSeconds(2));
    fx.clock.advance(Duration.ofSeconds(1));
    assertThat(h.extend(Duration.ofSeconds(1))).isTrue();
    assertThat(h.leaseEnd()).isEqualTo(EPOCH.plusSeconds(2));
    assertThat(h.extend(Duration.ofMinutes(10))).isTrue();
    assertThat(fx.backend.calls("extend").get(1).lease()).isEqualTo(Duration.ofSeconds(2));
    assertThat(h.leaseEnd()).isEqualTo(EPOCH.plusSeconds(3));
    fx.clock.advance(ms(1900));
    assertThat(h.isHeld()).isTrue();
    fx.clock.advance(ms(100));
    assertThat(h.isHeld()).isFalse();
    assertThat(h.extend(Duration.ofSeconds(1))).isFalse();
  }

  @Test
  void theExtensionRoundTripIsSpentLease() {
    LockHandle h = fx.lock().tryAcquire("k", lease(ms(1000))).orElseThrow();
    fx.clock.advance(ms(400));
    fx.faults.holdReplies(Operation.EXTEND);
    CompletableFuture<Boolean> f = h.extendAsync(ms(1000));
    fx.clock.advance(ms(400));
    fx.faults.deliverReplies();
    assertThat(KernelFixture.value(f)).isTrue();
    assertThat(h.leaseEnd()).isEqualTo(EPOCH.plusMillis(1400));
  }

  @Test
  void aRefusedExtensionLosesTheHandle() {
    DistributedLock lock = fx.lock();
    LockHandle h = lock.tryAcquire("k").orElseThrow();
    String owner = fx.backend.calls("acquire").get(0).owner();
    assertThat(fx.memory.release("test:lock:k", owner).join().released()).isTrue();
    assertThat(h.extend(Duration.ofSeconds(5))).isFalse();
    assertThat(h.isHeld()).isFalse();
    assertThat(h.lost()).isCompletedWithValue(LossReason.EXTEND_REFUSED);
    assertThat(fx.events.matching("lost:")).containsExactly("lost:EXTEND_REFUSED");
    assertThat(fx.events.activeChanges()).containsExactly(1, -1);
    assertThat(fx.events.matching("extend:")).containsExactly("extend:REFUSED:manual");
    assertThat(fx.log.containing("3102"))
        .singleElement()
        .asString()
        .startsWith("WARN")
        .contains("'k'");
  }

  @Test
  void aFailedExtensionKeepsTheLeaseAndTheHandle() {
    LockHandle h = fx.lock().tryAcquire("k", lease(ms(1000))).orElseThrow();
    Instant end = h.leaseEnd();
    fx.faults.failNext(1, LockFailureKind.TIMEOUT, Operation.EXTEND);
    assertThat(h.extend(ms(5000))).isFalse();
    assertThat(h.isHeld()).isTrue();
    assertThat(h.leaseEnd()).isEqualTo(end);
    assertThat(fx.events.matching("lost")).isEmpty();
    assertThat(fx.events.matching("extend:")).containsExactly("extend:FAILED:manual");
    assertThat(fx.log.containing("3105")).singleElement().asString().startsWith("WARN");
  }

  @Test
  void anExtensionGrantedAfterItsOwnLeaseIsSpentLosesTheHandle() {
    LockHandle h = fx.lock().tryAcquire("k", lease(ms(10_000))).orElseThrow();
    fx.faults.holdReplies(Operation.EXTEND);
    CompletableFuture<Boolean> f = h.extendAsync(ms(1000));
    fx.clock.advance(ms(1000));
    fx.faults.deliverReplies();
    assertThat(KernelFixture.value(f)).isFalse();
    assertThat(h.lost()).isCompletedWithValue(LossReason.EXTEND_TOO_LATE);
  }

  @Test
  void extensionsAreSerialisedAndTheLaterOneWins() {
    LockHandle h = fx.lock().tryAcquire("k", lease(ms(1000))).orElseThrow();
    fx.faults.holdReplies(Operation.EXTEND);
    CompletableFuture<Boolean> first = h.extendAsync(ms(5000));
    CompletableFuture<Boolean> second = h.extendAsync(ms(7000));
    assertThat(fx.backend.calls("extend")).hasSize(1);
    fx.clock.advance(ms(100));
    fx.faults.deliverReplies();
    assertThat(fx.backend.calls("extend")).hasSize(2);
    assertThat(KernelFixture.value(first)).isTrue();
    assertThat(KernelFixture.value(second)).isTrue();
    assertThat(h.leaseEnd()).isEqualTo(EPOCH.plusMillis(7100));
  }

  @Test
  void aQueuedExtensionCancelledByItsCallerIsNeverSent() {
    LockHandle h = fx.lock().tryAcquire("k", lease(ms(1000))).orElseThrow();
    fx.faults.holdReplies(Operation.EXTEND);
    CompletableFuture<Boolean> first = h.extendAsync(ms(5000));
    CompletableFuture<Boolean> queued = h.extendAsync(ms(7000));
    queued.cancel(false);
    fx.faults.deliverReplies();
    assertThat(KernelFixture.value(first)).isTrue();
    assertThat(fx.backend.calls("extend")).hasSize(1);
    assertThat(h.extend(ms(2000))).isTrue();
    assertThat(h.leaseEnd()).isEqualTo(EPOCH.plusMillis(2000));
  }

  @Test
  void cancellingAnInFlightExtensionStopsTheWaitTheQueuedOneFollowsItsReply() {
    LockHandle h = fx.lock().tryAcquire("k", lease(ms(1000))).orElseThrow();
    fx.faults.holdReplies(Operation.EXTEND);
    CompletableFuture<Boolean> inFlight = h.extendAsync(ms(5000));
    CompletableFuture<Boolean> queued = h.extendAsync(ms(7000));
    inFlight.cancel(false);
    assertThat(inFlight).isCancelled();
    assertThatThrownBy(inFlight::join).isInstanceOf(CancellationException.class);
    fx.faults.deliverReplies(); // the sent command's reply still arrives, then the queued one runs
    assertThat(KernelFixture.value(queued)).isTrue();
    assertThat(h.leaseEnd()).isEqualTo(EPOCH.plusMillis(7000));
  }

  @Test
  void aQueuedExtensionFindingTheHandleClosedOrExpiredIsFalseWithoutDispatch() {
    DistributedLock lock = fx.lock();
    LockHandle h = lock.tryAcquire("k", lease(ms(1000))).orElseThrow();
    fx.faults.holdReplies(Operation.EXTEND);
    CompletableFuture<Boolean> inFlight = h.extendAsync(ms(5000));
    CompletableFuture<Boolean> queued = h.extendAsync(ms(7000));
    h.close();
    assertThat(KernelFixture.value(queued)).isFalse();
    fx.faults.deliverReplies();
    assertThat(KernelFixture.value(inFlight)).isFalse();
    assertThat(fx.backend.calls("extend")).hasSize(1);

    LockHandle g = lock.tryAcquire("j", lease(ms(1000))).orElseThrow();
    fx.faults.holdReplies(Operation.EXTEND);
    CompletableFuture<Boolean> slow = g.extendAsync(ms(500));
    CompletableFuture<Boolean> late = g.extendAsync(ms(5000));
    fx.clock.advance(ms(1000)); // expires locally before the first reply
    fx.faults.deliverReplies();
    assertThat(KernelFixture.value(slow)).isFalse();
    assertThat(KernelFixture.value(late)).isFalse();
    assertThat(fx.backend.calls("extend")).hasSize(2);
  }

  @Test
  void aSuccessfulExtensionRearmsExpiryAndWarning() {
    LockHandle h = fx.lock().tryAcquire("k", lease(ms(1000))).orElseThrow();
    fx.clock.advance(ms(500));
    assertThat(h.extend(ms(1000))).isTrue();
    fx.clock.advance(ms(799));
    assertThat(fx.log.containing("3103")).isEmpty();
    fx.clock.advance(ms(1));
    assertThat(fx.log.containing("3103")).hasSize(1);
    assertThat(h.isHeld()).isTrue();
    fx.clock.advance(ms(200));
    assertThat(h.isHeld()).isFalse();
  }
}
