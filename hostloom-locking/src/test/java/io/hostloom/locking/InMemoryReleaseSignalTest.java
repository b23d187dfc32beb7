package io.hostloom.locking;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.hostloom.locking.memory.InMemoryLockBackend;
import io.hostloom.locking.testing.ManualLockClock;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/** {@link InMemoryLockBackend} as a {@link io.hostloom.locking.spi.ReleaseSignal}. */
class InMemoryReleaseSignalTest {
  private static final Duration LEASE = Duration.ofSeconds(10);
  private static final Duration WAIT = Duration.ofSeconds(5);

  private final ManualLockClock clock = new ManualLockClock();
  private final InMemoryLockBackend backend = new InMemoryLockBackend(clock);

  @Test
  void aReleaseWakesTheKeysWaitersOnly() {
    backend.acquire("k", "a", "", LEASE).join();
    CompletableFuture<Boolean> w1 = backend.awaitRelease("k", WAIT);
    CompletableFuture<Boolean> w2 = backend.awaitRelease("k", WAIT);
    CompletableFuture<Boolean> other = backend.awaitRelease("other", WAIT);
    assertThat(backend.release("k", "b").join().released())
        .isFalse(); // not the owner: nothing announced
    assertThat(w1).isNotDone();
    assertThat(backend.release("k", "a").join().released()).isTrue();
    assertThat(w1).isCompletedWithValue(true);
    assertThat(w2).isCompletedWithValue(true);
    assertThat(other).isNotDone();
    assertThat(backend.waiterCount()).isEqualTo(1);
    assertThat(clock.pendingTimers()).isEqualTo(1); // the other key's maxWait timer
  }

  @Test
  void aReplaceWakesAMismatchDoesNot() {
    backend.acquire("k", "a", "", LEASE).join();
    CompletableFuture<Boolean> w = backend.awaitRelease("k", WAIT);
    assertThat(backend.replace("k", "x", "b", "", LEASE).join().replaced()).isFalse();
    assertThat(w).isNotDone();
    assertThat(backend.replace("k", "a", "b", "", LEASE).join().replaced()).isTrue();
    assertThat(w).isCompletedWithValue(true);
  }

  @Test
  void expiryAnnouncesNothingAndMaxWaitCompletesWithFalse() {
    backend.acquire("k", "a", "", Duration.ofSeconds(1)).join();
    CompletableFuture<Boolean> w = backend.awaitRelease("k", WAIT);
    clock.advance(Duration.ofSeconds(2));
    assertThat(backend.read("k").join()).isEmpty(); // expired and purged: still no signal
    assertThat(backend.release("k", "a").join().released()).isFalse();
    assertThat(w).isNotDone();
    clock.advance(Duration.ofSeconds(3));
    assertThat(w).isCompletedWithValue(false);
    assertThat(backend.waiterCount()).isZero();
    assertThat(clock.pendingTimers()).isZero();
  }

  @Test
  void onlyReleasesAfterTheCallWake() {
    backend.acquire("k", "a", "", LEASE).join();
    backend.release("k", "a").join();
    CompletableFuture<Boolean> w = backend.awaitRelease("k", WAIT);
    assertThat(w).isNotDone();
  }

  @Test
  void cancellingRemovesTheWaiterAndItsTimer() {
    CompletableFuture<Boolean> w = backend.awaitRelease("k", WAIT);
    assertThat(backend.waiterCount()).isEqualTo(1);
    assertThat(clock.pendingTimers()).isEqualTo(1);
    w.cancel(false);
    assertThat(backend.waiterCount()).isZero();
    assertThat(clock.pendingTimers()).isZero();
  }

  @Test
  void argumentsAreChecked() {
    assertThat(backend.awaitRelease("k", Duration.ZERO)).isCompletedWithValue(false);
    assertThat(clock.pendingTimers()).isZero();
    assertThatThrownBy(() -> backend.awaitRelease("k", Duration.ofMillis(-1)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("but was PT-0.001S");
    assertThatThrownBy(() -> backend.awaitRelease("", WAIT))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> backend.awaitRelease(null, WAIT))
        .isInstanceOf(NullPointerException.class);
    assertThatThrownBy(() -> backend.awaitRelease("k", null))
        .isInstanceOf(NullPointerException.class);
  }
}
