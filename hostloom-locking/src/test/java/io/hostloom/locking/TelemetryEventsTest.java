package io.hostloom.locking;

import static io.hostloom.locking.KernelFixture.lease;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/** Contract P (104–107): the events behind the meters and spans, and the log events. */
class TelemetryEventsTest {
  private final KernelFixture fx = new KernelFixture();

  @Test
  void executeWrapsAcquireAndReleaseInOrder() {
    DistributedLock lock = fx.lock();
    fx.events.clear();
    lock.runWithLock("k", h -> {});
    assertThat(fx.events.events())
        .containsExactly(
            "execute-start:k:true",
            "acquire-start:k:exec-ctx",
            "acquire:ACQUIRED:1",
            "active+1",
            "released:true",
            "active-1",
            "execute-end:k:exec-ctx:ok");
  }

  @Test
  void outcomesOfAcquisitions() {
    DistributedLock lock = fx.lock();
    LockHandle held = fx.lock().tryAcquire("k").orElseThrow();
    fx.events.clear();
    assertThat(lock.tryAcquire("k")).isEmpty();
    fx.faults.failNext(1, LockFailureKind.UNAVAILABLE);
    assertThatThrownBy(() -> lock.tryAcquire("j"))
        .isInstanceOf(LockBackendUnavailableException.class);
    assertThat(fx.events.matching("acquire:"))
        .containsExactly("acquire:NOT_ACQUIRED:1", "acquire:UNAVAILABLE:1");
    held.close();
  }

  @Test
  void noAcquireDurationForCancellationReentrancyArgumentsOrClosedLock() {
    DistributedLock lock = fx.lock();
    fx.events.clear();
    assertThatThrownBy(() -> lock.tryAcquire(" ")).isInstanceOf(IllegalArgumentException.class);
    lock.runWithLock(
        "k",
        h ->
            assertThatThrownBy(() -> lock.tryAcquire("k"))
                .isInstanceOf(LockReentrancyException.class));
    fx.faults.holdReplies();
    CompletableFuture<Optional<LockHandle>> f = lock.tryAcquireAsync("c");
    f.cancel(false);
    CompletableFuture<Optional<LockHandle>> g = lock.tryAcquireAsync("d");
    lock.close();
    assertThatThrownBy(() -> lock.tryAcquire("e")).isInstanceOf(IllegalStateException.class);
    assertThat(g).isCompletedExceptionally();
    // only the execute's own acquisition counts; cancelled and closed ones are ABANDONED (no
    // sample)
    assertThat(fx.events.matching("acquire:"))
        .containsExactly("acquire:ACQUIRED:1", "acquire:ABANDONED:1", "acquire:ABANDONED:1");
  }

  @Test
  void extensionOutcomesAreReported() {
    LockHandle h = fx.lock().tryAcquire("k", lease(Duration.ofSeconds(1))).orElseThrow();
    assertThat(h.extend(Duration.ofSeconds(1))).isTrue();
    fx.faults.failNext(1, LockFailureKind.OTHER);
    assertThat(h.extend(Duration.ofSeconds(1))).isFalse();
    assertThat(fx.events.matching("extend:"))
        .containsExactly("extend:EXTENDED:manual", "extend:FAILED:manual");
  }

  @Test
  void ownerTokensNeverReachTheLog() {
    DistributedLock lock = fx.lock();
    fx.faults.holdReplies();
    CompletableFuture<Optional<LockHandle>> f =
        lock.tryAcquireAsync("k", lease(Duration.ofSeconds(1)));
    f.cancel(false);
    fx.faults.deliverReplies();
    LockHandle h = lock.tryAcquire("j", lease(Duration.ofSeconds(1))).orElseThrow();
    fx.faults.failAll(LockFailureKind.OTHER);
    var unused = h.extend(Duration.ofSeconds(1));
    fx.clock.advance(Duration.ofSeconds(1));
    h.close();
    String all = String.join("\n", fx.log.lines());
    for (RecordingBackend.Call c : fx.backend.calls()) {
      assertThat(all).doesNotContain(c.owner());
    }
    assertThat(all)
        .contains("3108")
        .contains("3105")
        .contains("3103")
        .contains("3102")
        .contains("3104");
  }
}
