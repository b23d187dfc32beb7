package io.hostloom.locking;

import static io.hostloom.locking.KernelFixture.opts;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.hostloom.locking.LockEventListener.ExtendResult;
import io.hostloom.locking.testing.CountingLockBackend.Operation;
import io.hostloom.locking.testing.ManualLockClock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/** The per-acquisition hold policy: maxHold, minimumHold, renewUntilClosed, cadence, listener. */
class HoldPolicyTest {
  private final KernelFixture fx = new KernelFixture();
  private static final Instant EPOCH = ManualLockClock.DEFAULT_EPOCH;

  private static Duration ms(long ms) {
    return Duration.ofMillis(ms);
  }

  private static LockOptions.Builder once(Duration lease) {
    return opts().lease(lease).maxWait(Duration.ZERO);
  }

  @Test
  void anAcquisitionsMaxHoldIsStrictAndCappedByTheLocks() {
    LockHandle own =
        fx.lock().tryAcquire("a", once(ms(1000)).autoExtend(true).maxHold(ms(1200)).build()).get();
    fx.clock.advance(ms(500)); // extended to 1500
    fx.clock.advance(ms(500)); // the last one is shortened to end at 1200 exactly
    assertThat(own.leaseEnd()).isEqualTo(EPOCH.plusMillis(1200));
    fx.clock.advance(ms(200));
    assertThat(own.isHeld()).isFalse();

    LockHandle capped =
        fx.lock(b -> b.maxHold(ms(800)))
            .tryAcquire("b", once(ms(1000)).autoExtend(true).maxHold(ms(5000)).build())
            .get();
    fx.clock.advance(ms(1000));
    assertThat(capped.isHeld()).isFalse(); // 800 ms cap: one lease, not extended
  }

  @Test
  void renewUntilClosedKeepsExtendingPastTheLocksMaxHoldUntilClosed() {
    DistributedLock lock = fx.lock(b -> b.maxHold(ms(1500)).strictMaxHold(true));
    LockHandle h = lock.tryAcquire("k", once(ms(1000)).renewUntilClosed(true).build()).get();
    fx.clock.advance(Duration.ofMinutes(1));
    assertThat(h.isHeld()).isTrue();
    assertThat(fx.log.containing("3106")).isEmpty();
    int extensions = fx.backend.calls("extend").size();
    h.close();
    fx.clock.advance(Duration.ofMinutes(1));
    assertThat(fx.backend.calls("extend")).hasSize(extensions);
    assertThat(fx.memory.read("test:lock:k").join()).isEmpty();
  }

  @Test
  void theCadenceSetsWhenExtensionsAreSentAndFailuresKeepTheKernelsRetry() {
    LockHandle h =
        fx.lock()
            .tryAcquire("k", once(ms(1000)).renewUntilClosed(true).extendEvery(ms(200)).build())
            .get();
    fx.clock.advance(ms(400));
    assertThat(fx.backend.times("extend")).containsExactly(ms(200), ms(400));
    fx.faults.failNext(1, LockFailureKind.TIMEOUT, Operation.EXTEND);
    fx.clock.advance(ms(200)); // fails at 600: lease end 1400, retried at 600 + 400
    fx.clock.advance(ms(400));
    assertThat(fx.backend.times("extend")).containsExactly(ms(200), ms(400), ms(600), ms(1000));
    assertThat(h.isHeld()).isTrue();
    h.close();
  }

  @Test
  void theListenerHearsEveryAutomaticExtensionAndNoManualOne() {
    List<ExtendResult> heard = new CopyOnWriteArrayList<>();
    List<Duration> took = new CopyOnWriteArrayList<>();
    LockHandle h =
        fx.lock()
            .tryAcquire(
                "k",
                once(ms(1000))
                    .renewUntilClosed(true)
                    .onAutoExtension(
                        (handle, r, t) -> {
                          heard.add(r);
                          took.add(t);
                        })
                    .build())
            .get();
    fx.clock.advance(ms(500));
    fx.faults.failNext(1, LockFailureKind.TIMEOUT, Operation.EXTEND);
    fx.clock.advance(ms(500));
    assertThat(h.extend(ms(1000))).isTrue();
    fx.memory.release("test:lock:k", fx.backend.calls("extend").get(0).owner()).join();
    fx.clock.advance(ms(500));
    assertThat(heard)
        .containsExactly(ExtendResult.EXTENDED, ExtendResult.FAILED, ExtendResult.REFUSED);
    assertThat(took).containsOnly(Duration.ZERO);
    assertThat(h.lost()).isCompletedWithValue(LossReason.EXTEND_REFUSED);
  }

  @Test
  void closingBeforeTheMinimumHoldKeepsTheLeaseForTheRemainderOnly() {
    DistributedLock lock = fx.lock();
    LockHandle h = lock.tryAcquire("k", once(ms(10_000)).minimumHold(ms(3000)).build()).get();
    fx.clock.advance(ms(1000));
    h.close();
    assertThat(fx.backend.calls("release")).isEmpty();
    assertThat(fx.backend.calls("extend"))
        .extracting(RecordingBackend.Call::lease)
        .containsExactly(ms(2000));
    assertThat(lock.tryAcquire("k")).isEmpty();
    fx.clock.advance(ms(2000));
    assertThat(lock.tryAcquire("k")).isPresent(); // the remainder, not the 10 s lease
    assertThat(fx.log.containing("3104")).isEmpty();
  }

  @Test
  void closingAfterTheMinimumHoldReleasesAtOnce() {
    DistributedLock lock = fx.lock();
    LockHandle h = lock.tryAcquire("k", once(ms(10_000)).minimumHold(ms(3000)).build()).get();
    fx.clock.advance(ms(3000));
    h.close();
    assertThat(fx.backend.calls("release")).hasSize(1);
    assertThat(fx.backend.calls("extend")).isEmpty();
    assertThat(lock.tryAcquire("k")).isPresent();
  }

  @Test
  void holdAtLeastReplacesTheMinimumHoldFromNow() {
    DistributedLock lock = fx.lock();
    LockHandle longer = lock.tryAcquire("a", once(ms(10_000)).minimumHold(ms(3000)).build()).get();
    fx.clock.advance(ms(1000));
    longer.holdAtLeast(ms(5000)); // until 6 s after the grant
    fx.clock.advance(ms(1000));
    longer.close();
    assertThat(fx.backend.calls("extend"))
        .extracting(RecordingBackend.Call::lease)
        .containsExactly(ms(4000));

    LockHandle cancelled =
        lock.tryAcquire("b", once(ms(10_000)).minimumHold(ms(3000)).build()).get();
    cancelled.holdAtLeast(Duration.ZERO);
    cancelled.close();
    assertThat(fx.backend.calls("release")).hasSize(1); // released at once, not kept 3 s
    assertThat(lock.tryAcquire("b")).isPresent();

    assertThatThrownBy(() -> longer.holdAtLeast(ms(-1)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("minimumHold must not be negative");
  }

  @Test
  void aMinimumHoldThatCannotBeKeptIsReportedLikeAFailedRelease() {
    DistributedLock lock = fx.lock();
    LockHandle h = lock.tryAcquire("k", once(ms(10_000)).minimumHold(ms(3000)).build()).get();
    fx.faults.failNext(1, LockFailureKind.UNAVAILABLE, Operation.EXTEND);
    h.close();
    assertThat(fx.log.containing("3104")).hasSize(1);
    assertThat(h.lost()).isNotDone();
  }

  @Test
  void invalidCombinationsAreRefusedAtBuild() {
    assertThatThrownBy(() -> opts().renewUntilClosed(true).maxHold(ms(1)).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("renewUntilClosed");
    assertThatThrownBy(() -> opts().renewUntilClosed(true).autoExtend(false).build())
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> opts().minimumHold(ms(-1)))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> opts().maxHold(Duration.ZERO))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> opts().extendEvery(Duration.ZERO))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
