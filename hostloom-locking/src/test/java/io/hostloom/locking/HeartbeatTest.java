package io.hostloom.locking;

import static io.hostloom.locking.KernelFixture.opts;
import static org.assertj.core.api.Assertions.assertThat;

import io.hostloom.locking.testing.CountingLockBackend.Operation;
import io.hostloom.locking.testing.ManualLockClock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/** Contract H (66–72): automatic extension, its halving retry schedule and max hold. */
class HeartbeatTest {
  private final KernelFixture fx = new KernelFixture();
  private static final Instant EPOCH = ManualLockClock.DEFAULT_EPOCH;

  private static Duration ms(double ms) {
    return Duration.ofNanos(Math.round(ms * 1_000_000));
  }

  private static LockOptions auto(Duration lease) {
    return opts().lease(lease).maxWait(Duration.ZERO).autoExtend(true).build();
  }

  @Test
  void autoExtendComesFromTheCallOrTheLock() {
    LockHandle off =
        fx.lock()
            .tryAcquire("a", opts().lease(ms(1000)).maxWait(Duration.ZERO).build())
            .orElseThrow();
    LockHandle on =
        fx.lock(b -> b.autoExtend(true))
            .tryAcquire("b", opts().lease(ms(1000)).maxWait(Duration.ZERO).build())
            .orElseThrow();
    LockHandle overridden =
        fx.lock(b -> b.autoExtend(true))
            .tryAcquire(
                "c", opts().lease(ms(1000)).maxWait(Duration.ZERO).autoExtend(false).build())
            .orElseThrow();
    fx.clock.advance(ms(2000));
    assertThat(off.isHeld()).isFalse();
    assertThat(on.isHeld()).isTrue();
    assertThat(overridden.isHeld()).isFalse();
  }

  @Test
  void heartbeatsAtHalfTheRemainingLeaseUntilMaxHold() {
    DistributedLock lock = fx.lock(b -> b.maxHold(ms(1200)));
    LockHandle h = lock.tryAcquire("k", auto(ms(1000))).orElseThrow();
    fx.clock.advance(ms(500));
    assertThat(h.leaseEnd()).isEqualTo(EPOCH.plusMillis(1500));
    fx.clock.advance(ms(500));
    assertThat(h.leaseEnd()).isEqualTo(EPOCH.plusMillis(2000));
    assertThat(fx.backend.times("extend")).containsExactly(ms(500), ms(1000));
    assertThat(fx.backend.calls("extend"))
        .extracting(RecordingBackend.Call::lease)
        .containsOnly(ms(1000));
    fx.clock.advance(ms(500));
    assertThat(fx.log.containing("3106")).singleElement().asString().startsWith("INFO");
    assertThat(fx.backend.calls("extend")).hasSize(2);
    fx.clock.advance(ms(500).minusNanos(1));
    assertThat(h.isHeld()).isTrue();
    fx.clock.advance(Duration.ofNanos(1));
    assertThat(h.isHeld()).isFalse();
    assertThat(fx.events.matching("extend:"))
        .containsExactly("extend:EXTENDED:auto", "extend:EXTENDED:auto");
  }

  @Test
  void aFailingHeartbeatIsRetriedHalfwayToTheLeaseEndDownToATwentiethOfTheLease() {
    LockHandle h = fx.lock().tryAcquire("k", auto(ms(1000))).orElseThrow();
    fx.faults.failAll(LockFailureKind.TIMEOUT, Operation.EXTEND);
    fx.clock.advance(ms(999.999999));
    assertThat(h.isHeld()).isTrue();
    // retries at 0.75, 0.875, 0.9375, 0.9875 and a last one due at 1.0 s, the lease end itself,
    // where the expiry wins: a spent lease is never extended
    assertThat(fx.backend.times("extend"))
        .containsExactly(ms(500), ms(750), ms(875), ms(937.5), ms(987.5));
    assertThat(fx.clock.pendingDelays()).containsExactly(Duration.ofNanos(1));
    fx.clock.advance(Duration.ofNanos(1));
    assertThat(h.isHeld()).isFalse();
    assertThat(h.lost()).isCompletedWithValue(LossReason.EXPIRED);
    assertThat(fx.backend.calls("extend")).hasSize(5);
    assertThat(fx.log.containing("3105")).hasSize(5);
    assertThat(fx.clock.pendingTimers()).isZero();
  }

  @Test
  void aRetrySucceedingAtThreeQuartersKeepsTheLease() {
    LockHandle h = fx.lock().tryAcquire("k", auto(ms(1000))).orElseThrow();
    fx.faults.failNext(1, LockFailureKind.OTHER, Operation.EXTEND);
    fx.clock.advance(ms(750));
    assertThat(fx.backend.times("extend")).containsExactly(ms(500), ms(750));
    assertThat(h.leaseEnd()).isEqualTo(EPOCH.plusMillis(1750));
    fx.clock.advance(ms(900));
    assertThat(h.isHeld()).isTrue();
    assertThat(fx.events.matching("lost")).isEmpty();
    h.close();
  }

  @Test
  void aManualExtensionDuringAHeartbeatWaitsAndTheLaterOneWins() {
    LockHandle h = fx.lock().tryAcquire("k", auto(ms(1000))).orElseThrow();
    fx.faults.holdReplies(Operation.EXTEND);
    fx.clock.advance(ms(500)); // heartbeat sent, reply held
    CompletableFuture<Boolean> manual = h.extendAsync(ms(3000));
    assertThat(fx.backend.calls("extend")).hasSize(1);
    fx.clock.advance(ms(100));
    fx.faults.deliverReplies();
    assertThat(KernelFixture.value(manual)).isTrue();
    assertThat(fx.backend.calls("extend")).hasSize(2);
    assertThat(h.leaseEnd()).isEqualTo(EPOCH.plusMillis(3600));
  }

  @Test
  void aHeartbeatRefusedByTheBackendLosesTheHandleWithoutRetry() {
    LockHandle h = fx.lock().tryAcquire("k", auto(ms(1000))).orElseThrow();
    String owner = fx.backend.calls("acquire").get(0).owner();
    assertThat(fx.memory.release("test:lock:k", owner).join().released()).isTrue();
    fx.clock.advance(ms(500));
    assertThat(h.lost()).isCompletedWithValue(LossReason.EXTEND_REFUSED);
    fx.clock.advance(ms(2000));
    assertThat(fx.backend.calls("extend")).hasSize(1);
  }

  @Test
  void strictMaxHoldEndsTheLeaseExactlyAtMaxHold() {
    DistributedLock lock = fx.lock(b -> b.maxHold(ms(1200)).strictMaxHold(true));
    LockHandle h = lock.tryAcquire("k", auto(ms(1000))).orElseThrow();
    fx.clock.advance(ms(500));
    assertThat(h.leaseEnd()).isEqualTo(EPOCH.plusMillis(1200));
    assertThat(fx.backend.calls("extend").get(0).lease()).isEqualTo(ms(700));
    fx.clock.advance(ms(700).minusNanos(1));
    assertThat(h.isHeld()).isTrue();
    assertThat(fx.log.containing("3106")).hasSize(1);
    fx.clock.advance(Duration.ofNanos(1));
    assertThat(h.isHeld()).isFalse();
    assertThat(fx.backend.calls("extend")).hasSize(1);
  }
}
