package io.hostloom.testkit.capability;

import static org.assertj.core.api.Assertions.assertThat;

import io.hostloom.locking.memory.InMemoryLockBackend;
import io.hostloom.locking.spi.LockBackend;
import io.hostloom.testkit.ManualLockClock;
import java.time.Duration;
import java.util.OptionalInt;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/**
 * The release-signal suite over {@link InMemoryLockBackend} on a {@link ManualLockClock}: every
 * "instance" is the one backend (there is no server to share), and {@code maxWait} passes when the
 * clock is advanced.
 */
class InMemoryReleaseSignalTest extends ReleaseSignalSuite {
  private final ManualLockClock clock = new ManualLockClock();
  private final InMemoryLockBackend backend = new InMemoryLockBackend(clock);

  @Override
  protected LockBackend newBackend() {
    return backend;
  }

  @Override
  protected void passTime(Duration duration) {
    clock.advance(duration);
  }

  @Override
  protected OptionalInt pendingWaits(LockBackend instance) {
    return OptionalInt.of(((InMemoryLockBackend) instance).waiterCount());
  }

  @Test
  void anEndedWaitLeavesNoTimerBehind() {
    CompletableFuture<Boolean> cancelled = backend.awaitRelease("k", Duration.ofSeconds(5));
    CompletableFuture<Boolean> ended = backend.awaitRelease("k", Duration.ofSeconds(5));
    assertThat(clock.pendingTimers()).isEqualTo(2);
    cancelled.cancel(false);
    ended.complete(false);
    assertThat(clock.pendingTimers()).isZero();
    assertThat(backend.awaitRelease("k", Duration.ZERO)).isCompletedWithValue(false);
    assertThat(clock.pendingTimers()).isZero();
  }
}
