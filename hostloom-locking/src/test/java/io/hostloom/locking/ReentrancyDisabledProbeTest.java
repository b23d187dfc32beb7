package io.hostloom.locking;

import static io.hostloom.locking.KernelFixture.opts;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.hostloom.locking.spi.AcquireOutcome;
import io.hostloom.locking.spi.LockBackend;
import io.hostloom.locking.testing.ForwardingLockBackend;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/** Contract K (87–91) reentrancy, L (92–94) disabled mode, O (102–103) probe, N (99–101). */
class ReentrancyDisabledProbeTest {
  private final KernelFixture fx = new KernelFixture();

  @Test
  void reacquiringAKeyHeldByTheSameThreadsExecuteThrowsWithoutABackendCall() {
    DistributedLock lock = fx.lock();
    lock.runWithLock(
        "k",
        h -> {
          int calls = fx.backend.calls().size();
          fx.events.clear();
          assertThatThrownBy(() -> lock.executeWithLock("k", g -> 1))
              .isInstanceOf(LockReentrancyException.class)
              .hasMessageContaining("'k'");
          assertThatThrownBy(() -> lock.tryAcquire("k"))
              .isInstanceOf(LockReentrancyException.class);
          assertThatThrownBy(() -> lock.acquireAsync("k"))
              .isInstanceOf(LockReentrancyException.class);
          assertThat(fx.backend.calls()).hasSize(calls);
          assertThat(fx.events.events()).isEmpty();
          int inner = lock.executeWithLock("other", g -> 2); // a different key works
          assertThat(inner).isEqualTo(2);
        });
    assertThat(fx.memory.liveCount()).isZero();
  }

  @Test
  void withoutDetectionANestedAcquisitionIsOrdinaryContention() {
    DistributedLock lock = fx.lock(b -> b.detectReentrancy(false));
    lock.runWithLock(
        "k",
        h ->
            assertThatThrownBy(
                    () -> lock.executeWithLock("k", opts().maxWait(Duration.ZERO).build(), g -> 1))
                .isInstanceOf(LockNotAcquiredException.class));
  }

  @Test
  void tryAcquireHandlesAreNotTrackedAndTheHeldSetIsRestored() {
    DistributedLock lock = fx.lock();
    LockHandle h = lock.tryAcquire("k").orElseThrow();
    assertThatThrownBy(
            () -> lock.executeWithLock("k", opts().maxWait(Duration.ZERO).build(), g -> 1))
        .isInstanceOf(LockNotAcquiredException.class); // contention, not reentrancy
    h.close();
    lock.runWithLock("a", g -> lock.runWithLock("b", x -> {}));
    assertThat(lock.tryAcquire("a")).isPresent(); // nothing left marked as held by this thread
  }

  @Test
  void detectionIsSharedByLocksOfTheSameNamespace() {
    DistributedLock one = fx.lock();
    DistributedLock two = fx.lock();
    one.runWithLock(
        "k",
        h ->
            assertThatThrownBy(() -> two.tryAcquire("k"))
                .isInstanceOf(LockReentrancyException.class));
  }

  @Test
  void anotherThreadIsAnotherFlow() throws Exception {
    DistributedLock lock = fx.lock();
    lock.runWithLock(
        "k",
        h -> {
          CompletableFuture<Optional<LockHandle>> other =
              KernelFixture.onThread(() -> lock.tryAcquire("k"));
          assertThat(KernelFixture.value(other)).isEmpty(); // contention, not reentrancy
        });
  }

  // ---------------------------------------------------------------- L

  /** A backend every call of which fails the test. */
  private static final LockBackend UNTOUCHABLE =
      new ForwardingLockBackend(null) {
        @Override
        public CompletableFuture<AcquireOutcome> acquire(
            String key, String owner, String data, Duration lease) {
          throw new AssertionError("backend touched");
        }
      };

  @Test
  void disabledModeRunsActionsAtOnceWithAPlaceholder() throws Exception {
    DistributedLock lock = fx.lock(b -> b.enabled(false), UNTOUCHABLE);
    assertThat(lock.isCoordinated()).isFalse();
    String r =
        lock.executeWithLock(
            "k",
            h -> {
              assertThat(h.isCoordinated()).isFalse();
              return lock.executeWithLock("k", g -> "nested"); // no reentrancy check
            });
    assertThat(r).isEqualTo("nested");
    assertThat(lock.executeWithLockAsync("k", h -> CompletableFuture.completedFuture(3)).get())
        .isEqualTo(3);
    assertThat(fx.events.matching("acquire")).isEmpty();
    assertThat(fx.events.matching("execute-start")).containsOnly("execute-start:k:false");

    LockHandle p = lock.tryAcquire("k").orElseThrow();
    assertThat(p.isCoordinated()).isFalse();
    assertThat(p.leaseEnd()).isEqualTo(Instant.MAX);
    assertThat(p.fencingToken()).isZero();
    assertThat(p.extend(Duration.ofSeconds(1))).isTrue();
    p.close();
    assertThat(p.isHeld()).isTrue(); // the seed's placeholder: held forever
    assertThat(p.lost()).isNotDone();
    assertThat(lock.acquire("k").isCoordinated()).isFalse();
    assertThat(lock.acquireAsync("k").get().key()).isEqualTo("k");
  }

  // ---------------------------------------------------------------- O

  @Test
  void probeDescribesTheComposition() {
    DistributedLock lock =
        DistributedLock.builder(LockingOptions.of("billing"), fx.memory).logger(fx.log).build();
    LockDescription d = lock.describe();
    assertThat(d.namespace()).isEqualTo("billing");
    assertThat(d.backend()).isEqualTo("in-memory");
    assertThat(d.enabled()).isTrue();
    assertThat(d.defaultLease()).isEqualTo(Duration.ofSeconds(30));
    assertThat(d.maxLease()).isEqualTo(Duration.ofMinutes(5));
    assertThat(d.retry()).isEqualTo("linear step 50 ms, 10 retries, jitter 50 ms");
    assertThat(d.maxWait()).isEqualTo(Duration.ofMillis(3250));
    assertThat(d.lines()).hasSize(7);
    assertThat(d.lines().get(1)).contains("hostloom.locking.enabled = true");
    assertThat(String.join("\n", d.lines()))
        .contains(LockingOptions.KEY_NAMESPACE)
        .contains(LockingOptions.KEY_DEFAULT_LEASE)
        .contains(LockingOptions.KEY_MAX_LEASE)
        .contains(LockingOptions.KEY_MAX_HOLD)
        .contains(LockingOptions.KEY_RETRY)
        .contains(LockingOptions.KEY_AUTO_EXTEND)
        .contains(LockingOptions.KEY_DETECT_REENTRANCY)
        .contains(LockingOptions.KEY_WAKE_ON_RELEASE + " = true (the backend signals releases");
    assertThat((fx.lock(b -> b.enabled(false))).describe().backend()).isEqualTo("(disabled)");
  }

  @Test
  void probeOfAnUnknownLock() {
    DistributedLock foreign = new ForeignLock();
    LockDescription d = foreign.describe();
    assertThat(d.namespace()).isEmpty();
    assertThat(d.backend()).isEqualTo(ForeignLock.class.getName());
    assertThat(d.enabled()).isTrue();
    assertThat(d.defaultLease()).isZero();
    assertThat(d.maxWait()).isZero();
    assertThat(d.lines()).singleElement().asString().contains("nothing more is known");
  }

  /** A lock the probe knows nothing about; every call fails. */
  private static final class ForeignLock implements DistributedLock {
    @Override
    public boolean isCoordinated() {
      return true;
    }

    @Override
    public void close() {}

    @Override
    public <T, X extends Exception> T executeWithLock(
        String key, LockOptions options, LockedCallable<T, X> action) {
      throw new UnsupportedOperationException();
    }

    @Override
    public LockHandle acquire(String key, LockOptions options) {
      throw new UnsupportedOperationException();
    }

    @Override
    public Optional<LockHandle> tryAcquire(String key, LockOptions options) {
      throw new UnsupportedOperationException();
    }

    @Override
    public CompletableFuture<LockHandle> acquireAsync(String key, LockOptions options) {
      throw new UnsupportedOperationException();
    }

    @Override
    public CompletableFuture<Optional<LockHandle>> tryAcquireAsync(
        String key, LockOptions options) {
      throw new UnsupportedOperationException();
    }

    @Override
    public <T> CompletableFuture<T> executeWithLockAsync(
        String key, LockOptions options, LockedAsyncFunction<T> action) {
      throw new UnsupportedOperationException();
    }
  }

  // ---------------------------------------------------------------- N

  @Test
  void inMemoryBackendStateMachine() {
    var m = fx.memory;
    assertThat(m.acquire("k", "a", "", Duration.ofSeconds(1)).join().granted()).isTrue();
    assertThat(m.acquire("k", "b", "", Duration.ofSeconds(1)).join().granted()).isFalse();
    long token = m.acquire("k", "a", "", Duration.ofSeconds(5)).join().fencingToken(); // refresh
    fx.clock.advance(Duration.ofSeconds(2));
    assertThat(m.liveCount()).isEqualTo(1);
    assertThat(m.extend("k", "b", Duration.ofSeconds(1)).join().extended()).isFalse();
    assertThat(m.release("k", "b").join().released()).isFalse();
    assertThat(m.extend("k", "a", Duration.ofSeconds(1)).join().extended()).isTrue();
    fx.clock.advance(Duration.ofSeconds(1)); // expiry <= now is expired
    assertThat(m.liveCount()).isZero();
    assertThat(m.release("k", "a").join().released()).isFalse();
    var next = m.acquire("k", "b", "", Duration.ofSeconds(1)).join();
    assertThat(next.granted()).isTrue();
    assertThat(next.fencingToken()).isGreaterThan(token);
    assertThat(m.release("k", "b").join().released()).isTrue();
    assertThatThrownBy(() -> m.acquire("", "a", "", Duration.ofSeconds(1)))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> m.acquire("k", "", "", Duration.ofSeconds(1)))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> m.acquire("k", "a", "", Duration.ZERO))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void fencingTokensIncreaseAcrossGrantsOfAKey() {
    DistributedLock lock = fx.lock();
    LockHandle first = lock.tryAcquire("k").orElseThrow();
    long t1 = first.fencingToken();
    first.close();
    LockHandle second = fx.lock().tryAcquire("k").orElseThrow();
    assertThat(t1).isPositive();
    assertThat(second.fencingToken()).isGreaterThan(t1);
  }
}
