package io.hostloom.locking;

import static io.hostloom.locking.KernelFixture.failure;
import static io.hostloom.locking.KernelFixture.lease;
import static io.hostloom.locking.KernelFixture.onThread;
import static io.hostloom.locking.KernelFixture.opts;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.hostloom.locking.testing.CountingLockBackend.Operation;
import java.time.Duration;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** Contract I (73–78) loss and OnLost, J (79–86) release. */
class LossAndReleaseTest {
  private final KernelFixture fx = new KernelFixture();

  private static Duration ms(long ms) {
    return Duration.ofMillis(ms);
  }

  @Test
  void lossIsReportedOnceWithEverySignal() {
    LockHandle h = fx.lock().tryAcquire("k", lease(ms(1000))).orElseThrow();
    CompletableFuture<LossReason> before = h.lost();
    fx.clock.advance(ms(1000));
    assertThat(h.isHeld()).isFalse();
    assertThat(h.extend(ms(1000))).isFalse();
    h.close();
    assertThat(before).isCompletedWithValue(LossReason.EXPIRED);
    assertThat(h.lost()).isCompletedWithValue(LossReason.EXPIRED); // readable after close
    assertThat(fx.events.matching("lost:")).containsExactly("lost:EXPIRED");
    assertThat(fx.events.activeChanges()).containsExactly(1, -1);
    assertThat(fx.log.containing("3102")).singleElement().asString().contains("expired");
  }

  @Test
  void aNormalReleaseNeverSignalsLoss() {
    LockHandle h = fx.lock().tryAcquire("k").orElseThrow();
    CompletableFuture<LossReason> lost = h.lost();
    h.close();
    fx.clock.advance(Duration.ofMinutes(1));
    assertThat(lost).isNotDone();
    assertThat(h.lost()).isNotDone();
    assertThat(h.isHeld()).isFalse();
  }

  @Test
  void completingTheLostCopyDoesNotAffectTheHandle() {
    LockHandle h = fx.lock().tryAcquire("k").orElseThrow();
    h.lost().complete(LossReason.EXPIRED);
    assertThat(h.lost()).isNotDone();
    assertThat(h.isHeld()).isTrue();
  }

  @Test
  void onLostCancelCancelsAnAsyncAction() {
    DistributedLock lock = fx.lock();
    CompletableFuture<String> action = new CompletableFuture<>();
    CompletableFuture<String> out =
        lock.executeWithLockAsync(
            "k", opts().lease(ms(1000)).onLost(OnLost.CANCEL).build(), h -> action);
    fx.clock.advance(ms(1000));
    assertThat(action).isCancelled();
    assertThatThrownBy(out::join).isInstanceOf(CancellationException.class);
    assertThat(fx.backend.calls("release")).hasSize(1);
  }

  @Test
  void onLostCancelInterruptsOnlyWhileTheActionRunsAndClearsTheFlag() throws Exception {
    DistributedLock lock = fx.lock();
    CountDownLatch started = new CountDownLatch(1);
    CompletableFuture<Boolean> flagAfter = new CompletableFuture<>();
    CompletableFuture<Object> out =
        onThread(
            () -> {
              try {
                return lock.executeWithLock(
                    "k",
                    opts().lease(ms(1000)).onLost(OnLost.CANCEL).build(),
                    h -> {
                      started.countDown();
                      new CountDownLatch(1).await();
                      return "never";
                    });
              } finally {
                flagAfter.complete(Thread.currentThread().isInterrupted());
              }
            });
    started.await();
    fx.clock.advance(ms(1000));
    assertThat(failure(out)).isInstanceOf(InterruptedException.class);
    assertThat(KernelFixture.value(flagAfter)).isFalse();
    assertThat(fx.memory.liveCount()).isZero(); // a cancelled action still releases
  }

  @Test
  void onLostObserveKeepsTheActionRunningAndReturnsItsResult() throws Exception {
    DistributedLock lock = fx.lock();
    CountDownLatch started = new CountDownLatch(1);
    CountDownLatch proceed = new CountDownLatch(1);
    CompletableFuture<String> out =
        onThread(
            () ->
                lock.executeWithLock(
                    "k",
                    opts().lease(ms(1000)).build(),
                    h -> {
                      started.countDown();
                      proceed.await();
                      return h.isHeld() ? "held" : "lost but finished";
                    }));
    started.await();
    fx.clock.advance(ms(1000));
    proceed.countDown();
    assertThat(KernelFixture.value(out)).isEqualTo("lost but finished");
  }

  @Test
  void failingCallbacksAndListenersNeverStopTheRelease() {
    AtomicInteger secondCallback = new AtomicInteger();
    RecordingListener counting = new RecordingListener();
    LockEventListener failing =
        new LockEventListener() {
          @Override
          public void leaseLost(LeaseLost e) {
            counting.leaseLost(e);
            throw new IllegalStateException("listener boom");
          }

          @Override
          public void acquireFinished(AcquireFinished e) {
            counting.acquireFinished(e);
          }

          @Override
          public void released(Released e) {
            counting.released(e);
            throw new IllegalStateException("listener boom");
          }
        };
    DistributedLock lock =
        DistributedLock.builder(KernelFixture.options().build(), fx.backend)
            .clock(fx.clock)
            .listener(failing)
            .logger(fx.log)
            .build();
    LockHandle h = lock.tryAcquire("k", lease(ms(1000))).orElseThrow();
    var unused1 =
        h.lost()
            .thenRun(
                () -> {
                  throw new IllegalStateException("callback boom");
                });
    var unused2 = h.lost().thenRun(secondCallback::incrementAndGet);
    fx.clock.advance(ms(1000));
    h.close();
    assertThat(secondCallback).hasValue(1);
    assertThat(fx.backend.calls("release")).hasSize(1);
    assertThat(counting.activeChanges()).containsExactly(1, -1);
    assertThat(fx.log.containing("3107")).hasSize(2);
  }

  @Test
  void closingTwiceReleasesOnce() {
    LockHandle h = fx.lock().tryAcquire("k").orElseThrow();
    h.close();
    h.close();
    var unused = h.closeAsync();
    assertThat(fx.backend.calls("release")).hasSize(1);
  }

  @Test
  void anInterruptedThreadStillReleases() {
    LockHandle h = fx.lock().tryAcquire("k").orElseThrow();
    Thread.currentThread().interrupt();
    try {
      h.close();
      assertThat(Thread.currentThread().isInterrupted()).isTrue();
    } finally {
      Thread.interrupted();
    }
    assertThat(fx.memory.liveCount()).isZero();
  }

  @Test
  void aFailedReleaseIsLoggedNotALoss() {
    LockHandle h = fx.lock().tryAcquire("k").orElseThrow();
    fx.faults.failNext(1, LockFailureKind.TIMEOUT, Operation.RELEASE);
    h.close();
    assertThat(h.isHeld()).isFalse();
    assertThat(h.lost()).isNotDone();
    assertThat(fx.events.matching("lost")).isEmpty();
    assertThat(fx.events.activeChanges()).containsExactly(1, -1);
    assertThat(fx.log.containing("3104"))
        .singleElement()
        .asString()
        .startsWith("WARN")
        .contains("'k'")
        .contains("2026-01-01T00:00:30Z");
  }

  @Test
  void aRefusedReleaseOfAHeldHandleIsALossAtClose() {
    LockHandle h = fx.lock().tryAcquire("k").orElseThrow();
    String owner = fx.backend.calls("acquire").get(0).owner();
    assertThat(fx.memory.release("test:lock:k", owner).join().released()).isTrue();
    h.close();
    assertThat(h.lost()).isCompletedWithValue(LossReason.RELEASE_REFUSED);
    assertThat(fx.events.matching("lost:")).containsExactly("lost:RELEASE_REFUSED");
    assertThat(fx.events.activeChanges()).containsExactly(1, -1);
    assertThat(fx.log.containing("3102")).hasSize(1);
  }

  @Test
  void releasingAfterLocalExpiryStillCallsTheBackendAndReportsOneLoss() {
    LockHandle h = fx.lock().tryAcquire("k", lease(ms(1000))).orElseThrow();
    fx.clock.advance(ms(1000));
    h.close();
    assertThat(fx.backend.calls("release")).hasSize(1);
    assertThat(fx.events.matching("lost:")).containsExactly("lost:EXPIRED");
    assertThat(fx.events.matching("released:")).containsExactly("released:false");
  }

  @Test
  void executeRecordsTheHoldDurationAndReleasesOnSuccessAndFailure() {
    DistributedLock lock = fx.lock();
    int result =
        lock.executeWithLock(
            "k",
            h -> {
              fx.clock.advance(ms(250));
              return 7;
            });
    assertThat(result).isEqualTo(7);
    assertThat(fx.events.holdNanos).containsExactly(ms(250).toNanos());
    try {
      lock.runWithLock(
          "k",
          h -> {
            throw new IllegalArgumentException("x");
          });
    } catch (IllegalArgumentException expected) {
      // propagated unchanged
    }
    assertThat(fx.memory.liveCount()).isZero();
    assertThat(fx.backend.calls("release")).hasSize(2);
  }

  @Test
  void aStaleOwnersReleaseNeverRemovesTheSuccessor() {
    LockHandle stale = fx.lock().tryAcquire("k", lease(ms(1000))).orElseThrow();
    fx.clock.advance(ms(1000));
    LockHandle owner = fx.lock().tryAcquire("k").orElseThrow();
    stale.close();
    assertThat(fx.lock().tryAcquire("k")).isEmpty();
    assertThat(owner.isHeld()).isTrue();
  }
}
