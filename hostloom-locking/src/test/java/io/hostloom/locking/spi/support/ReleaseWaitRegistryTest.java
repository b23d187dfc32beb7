package io.hostloom.locking.spi.support;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.hostloom.locking.testing.ManualLockClock;
import io.hostloom.locking.time.LockClock;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import org.junit.jupiter.api.Test;

class ReleaseWaitRegistryTest {
  private static final Duration LONG = Duration.ofMinutes(5);

  private final ManualLockClock clock = new ManualLockClock();
  private final ReleaseWaitRegistry registry = new ReleaseWaitRegistry(clock);

  @Test
  void roundingIsExactNanosSaturatedAtForever() {
    assertThat(ReleaseWaitRegistry.waitNanos(Duration.ZERO)).isZero();
    assertThat(ReleaseWaitRegistry.waitNanos(Duration.ofNanos(1))).isEqualTo(1);
    assertThat(ReleaseWaitRegistry.waitNanos(Duration.ofMillis(1).plusNanos(1)))
        .isEqualTo(1_000_001);
    assertThat(ReleaseWaitRegistry.waitNanos(Duration.ofDays(366 * 80)))
        .isEqualTo(LeaseRounding.FOREVER);
    assertThat(ReleaseWaitRegistry.waitNanos(Duration.ofSeconds(Long.MAX_VALUE)))
        .isEqualTo(LeaseRounding.FOREVER);
    assertThatThrownBy(() -> ReleaseWaitRegistry.waitNanos(Duration.ofNanos(-1)))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> ReleaseWaitRegistry.waitNanos(null))
        .isInstanceOf(NullPointerException.class);
  }

  @Test
  void aWaitEndsFalseExactlyAtMaxWaitAndNotBefore() {
    CompletableFuture<Boolean> w = registry.await("k", Duration.ofNanos(1_000_001));
    clock.advance(Duration.ofMillis(1));
    assertThat(w).isNotDone();
    clock.advance(Duration.ofNanos(1));
    assertThat(w).isCompletedWithValue(false);
    assertThat(registry.pending()).isZero();
    assertThat(clock.pendingTimers()).isZero();
  }

  @Test
  void pendingForIsTheLatestEndOfTheKeysPendingWaits() {
    assertThat(registry.pendingFor("k")).isEmpty();
    CompletableFuture<Boolean> shorter = registry.await("k", Duration.ofSeconds(2));
    CompletableFuture<Boolean> longer = registry.await("k", Duration.ofSeconds(5));
    registry.await("other", Duration.ofMinutes(1));
    clock.advance(Duration.ofSeconds(1));
    assertThat(registry.pendingFor("k")).hasValue(Duration.ofSeconds(4));
    longer.complete(false); // ended by its caller: only the shorter one is left
    assertThat(registry.pendingFor("k")).hasValue(Duration.ofSeconds(1));
    clock.advance(Duration.ofSeconds(1));
    assertThat(shorter).isCompletedWithValue(false);
    assertThat(registry.pendingFor("k")).isEmpty();
    assertThat(registry.pendingFor("other")).hasValue(Duration.ofSeconds(58));
  }

  @Test
  void zeroAnswersFalseAtOnceAndRegistersNothing() {
    assertThat(registry.await("k", Duration.ZERO)).isCompletedWithValue(false);
    assertThat(registry.pending()).isZero();
    assertThat(clock.pendingTimers()).isZero();
  }

  @Test
  void argumentsAreChecked() {
    assertThatThrownBy(() -> registry.await("k", Duration.ofMillis(-1)))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> registry.await("", LONG)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> registry.await(null, LONG)).isInstanceOf(NullPointerException.class);
    assertThatThrownBy(() -> registry.await("k", null)).isInstanceOf(NullPointerException.class);
  }

  @Test
  void aWaitOfCenturiesNeitherThrowsNorEnds() {
    CompletableFuture<Boolean> w = registry.await("k", Duration.ofSeconds(Long.MAX_VALUE));
    clock.advance(Duration.ofDays(365 * 50));
    assertThat(w).isNotDone();
    registry.wakeAll("k");
    assertThat(w).isCompletedWithValue(true);
  }

  @Test
  void wakeOneWakesTheOldestPendingWaitOnly() {
    CompletableFuture<Boolean> first = registry.await("k", LONG);
    CompletableFuture<Boolean> second = registry.await("k", LONG);
    CompletableFuture<Boolean> third = registry.await("k", LONG);
    first.complete(false); // ended by its caller: skipped, not counted as woken
    assertThat(registry.wakeOne("k")).isTrue();
    assertThat(second).isCompletedWithValue(true);
    assertThat(third).isNotDone();
    assertThat(registry.wakeOne("k")).isTrue();
    assertThat(third).isCompletedWithValue(true);
    assertThat(registry.wakeOne("k")).isFalse();
    assertThat(registry.pending()).isZero();
    assertThat(clock.pendingTimers()).isZero();
  }

  @Test
  void wakeAllWakesEveryWaitOfTheKeyAndNoOther() {
    CompletableFuture<Boolean> a = registry.await("k", LONG);
    CompletableFuture<Boolean> b = registry.await("k", LONG);
    CompletableFuture<Boolean> other = registry.await("other", LONG);
    registry.wakeAll("k");
    assertThat(a).isCompletedWithValue(true);
    assertThat(b).isCompletedWithValue(true);
    assertThat(other).isNotDone();
    assertThat(registry.pending()).isEqualTo(1);
  }

  @Test
  void stampsWakeOnlyWaitsThatBeganBeforeTheAnnouncement() {
    CompletableFuture<Boolean> before = registry.await("k", LONG, 10);
    CompletableFuture<Boolean> after = registry.await("k", LONG, 20);
    CompletableFuture<Boolean> unstamped = registry.await("k", LONG);
    registry.wakeAll("k", 15);
    assertThat(before).isCompletedWithValue(true);
    assertThat(unstamped).isCompletedWithValue(true);
    assertThat(after).isNotDone();
    registry.wakeAll("k");
    assertThat(after).isCompletedWithValue(true);
  }

  @Test
  void wakeEveryKeyWakesAllPendingWaits() {
    CompletableFuture<Boolean> a = registry.await("a", LONG);
    CompletableFuture<Boolean> b = registry.await("b", LONG, 99);
    registry.wakeEveryKey();
    assertThat(a).isCompletedWithValue(true);
    assertThat(b).isCompletedWithValue(true);
    assertThat(registry.pending()).isZero();
    assertThat(clock.pendingTimers()).isZero();
  }

  @Test
  void closeEndsEveryWaitFalseAndLaterWaitsAnswerFalseAtOnce() {
    CompletableFuture<Boolean> a = registry.await("a", LONG);
    CompletableFuture<Boolean> b = registry.await("b", LONG);
    registry.close();
    assertThat(a).isCompletedWithValue(false);
    assertThat(b).isCompletedWithValue(false);
    assertThat(registry.isClosed()).isTrue();
    assertThat(registry.await("a", LONG)).isCompletedWithValue(false);
    assertThat(registry.pending()).isZero();
    assertThat(clock.pendingTimers()).isZero();
  }

  @Test
  void cancelledWaitsLeaveNothingBehind() {
    CompletableFuture<Boolean> cancelled = registry.await("k", LONG);
    CompletableFuture<Boolean> kept = registry.await("k", LONG);
    cancelled.cancel(false);
    assertThat(registry.pending()).isEqualTo(1);
    assertThat(clock.pendingTimers()).isEqualTo(1);
    assertThat(registry.wakeOne("k")).isTrue();
    assertThat(kept).isCompletedWithValue(true);
    assertThat(registry.pending()).isZero();
    assertThat(clock.pendingTimers()).isZero();
  }

  @Test
  void aShutDownTimerEndsTheWaitFalse() {
    ScheduledExecutorService executor = new ScheduledThreadPoolExecutor(1);
    executor.shutdown();
    ReleaseWaitRegistry onShutDown = new ReleaseWaitRegistry(LockClock.system(executor));
    assertThat(onShutDown.await("k", LONG)).isCompletedWithValue(false);
    assertThat(onShutDown.pending()).isZero();
  }

  @Test
  void dependentStagesMayStartAnotherWaitOfTheSameKey() {
    CompletableFuture<CompletableFuture<Boolean>> next = new CompletableFuture<>();
    var unused = registry.await("k", LONG).thenRun(() -> next.complete(registry.await("k", LONG)));
    registry.wakeOne("k");
    assertThat(next).isDone();
    assertThat(next.join()).isNotDone();
    assertThat(registry.pending()).isEqualTo(1);
  }
}
