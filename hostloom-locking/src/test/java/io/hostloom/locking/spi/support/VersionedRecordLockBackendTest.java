package io.hostloom.locking.spi.support;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.hostloom.locking.LockFailureKind;
import io.hostloom.locking.memory.InMemoryRecordStore;
import io.hostloom.locking.spi.AcquireOutcome;
import io.hostloom.locking.spi.LockBackend;
import io.hostloom.locking.spi.LockBackendException;
import io.hostloom.locking.time.LockClock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/**
 * The generic backend's loop over a scripted store: lost writes decided again, bounded retries,
 * fencing, failure kinds, the deadline, rounding. The full SPI contract on it is the testkit's
 * {@code VersionedRecordLockBackendConformanceTest}.
 */
class VersionedRecordLockBackendTest {
  private static final Duration LEASE = Duration.ofSeconds(10);

  private final TickerClock clock = new TickerClock();
  private final ScriptedStore store = new ScriptedStore(new InMemoryRecordStore(clock));
  private final LockBackend backend =
      VersionedRecordLockBackend.builder(store).name("test").maxLostWrites(3).build();

  @Test
  void aLostWriteIsDecidedAgainOnAFreshRead() throws Exception {
    assertThat(backend.acquire("k", "me", "", LEASE).get().granted()).isTrue();
    store.calls.clear();
    store.loseNextWrites = 1;

    assertThat(backend.extend("k", "me", LEASE).get().extended()).isTrue();
    assertThat(store.calls).containsExactly("read", "cas(lost)", "read", "cas");
  }

  @Test
  void aLostWriteThatToldTheCurrentRecordNeedsNoRead() throws Exception {
    assertThat(backend.acquire("k", "you", "d", LEASE).get().granted()).isTrue();
    store.calls.clear();

    AcquireOutcome o = backend.acquire("k", "me", "", LEASE).get();
    assertThat(o.granted()).isFalse();
    assertThat(o.holder().orElseThrow().owner()).isEqualTo("you");
    assertThat(store.calls).containsExactly("create(lost)"); // one round trip for "held"
  }

  @Test
  void retriesAreBoundedAndEndInOther() throws Exception {
    backend.acquire("k", "me", "", LEASE).get();
    store.calls.clear();
    store.loseNextWrites = Integer.MAX_VALUE;

    assertThatThrownBy(() -> backend.extend("k", "me", LEASE).get())
        .isInstanceOf(ExecutionException.class)
        .cause()
        .isInstanceOf(LockBackendException.class)
        .hasMessageContaining("gave up after 3 conditional writes lost")
        .extracting(e -> ((LockBackendException) e).kind())
        .isEqualTo(LockFailureKind.OTHER);
    assertThat(store.calls).filteredOn(c -> c.startsWith("cas")).hasSize(3);
  }

  @Test
  void fencingTokensIncreaseWithEveryGrantAndStayOnExtension() throws Exception {
    List<Long> grants = new ArrayList<>();
    grants.add(backend.acquire("k", "a", "", LEASE).get().fencingToken());
    long again = backend.acquire("k", "a", "", LEASE).get().fencingToken();
    assertThat(again).as("the owner again keeps its token").isEqualTo(grants.get(0));
    grants.add(backend.replace("k", "a", "b", "", LEASE).get().fencingToken());
    clock.advance(LEASE); // expired: a takeover is a new grant
    grants.add(backend.acquire("k", "c", "", LEASE).get().fencingToken());
    assertThat(backend.release("k", "c").get().released()).isTrue();
    grants.add(backend.acquire("k", "d", "", LEASE).get().fencingToken()); // after a delete
    assertThat(grants).isSortedAccordingTo(Long::compare).doesNotHaveDuplicates();
  }

  @Test
  void anExpiredRecordIsNeverAnswered() throws Exception {
    backend.acquire("k", "a", "", LEASE).get();
    clock.advance(LEASE);
    assertThat(backend.extend("k", "a", LEASE).get().extended()).isFalse();
    assertThat(backend.release("k", "a").get().released()).isFalse();
    assertThat(backend.replace("k", "a", "b", "", LEASE).get().replaced()).isFalse();
    assertThat(backend.read("k").get()).isEmpty();
    assertThat(((InMemoryRecordStore) store.delegate).size()).as("read evicted it").isZero();
  }

  @Test
  void unavailableBecomesOtherOnceAWriteMayHaveBeenApplied() throws Exception {
    backend.acquire("k", "me", "", LEASE).get();
    store.partialLoss = true;
    store.failReads = () -> LockBackendException.unavailable("refused", null);
    store.failReadsAfter = 1; // the first read answers; the one after the partial write fails

    assertThat(kindOf(backend.extend("k", "me", LEASE))).isEqualTo(LockFailureKind.OTHER);

    store.partialLoss = false;
    store.failReadsAfter = 0;
    assertThat(kindOf(backend.extend("k", "me", LEASE))).isEqualTo(LockFailureKind.UNAVAILABLE);
  }

  @Test
  void aStoreThatThrowsFailsTheFutureInstead() throws Exception {
    store.failReads = () -> new IllegalStateException("bug");
    CompletableFuture<?> f = backend.release("k", "me");
    assertThat(kindOf(f)).isEqualTo(LockFailureKind.OTHER);
  }

  @Test
  void theDeadlineFailsTimeoutAndCancelsThePendingCall() throws Exception {
    LockBackend bounded =
        VersionedRecordLockBackend.builder(store).commandTimeout(Duration.ofMillis(20)).build();
    store.hangReads = true;

    CompletableFuture<?> f = bounded.read("k");
    assertThat(kindOf(f)).isEqualTo(LockFailureKind.TIMEOUT);
    assertThat(store.hung.get(5, TimeUnit.SECONDS).isCancelled()).isTrue();
  }

  @Test
  void cancellingTheOperationCancelsThePendingCall() throws Exception {
    store.hangReads = true;
    CompletableFuture<?> f = backend.read("k");
    f.cancel(false);
    assertThat(store.hung.get(5, TimeUnit.SECONDS).isCancelled()).isTrue();
  }

  @Test
  void leasesAreRoundedUpToTheStoresResolution() throws Exception {
    store.resolution = Duration.ofSeconds(1);
    backend.acquire("k", "me", "", Duration.ofNanos(1)).get();
    backend.extend("k", "me", Duration.ofMillis(1001)).get();
    assertThat(store.leases).containsExactly(Duration.ofSeconds(1), Duration.ofSeconds(2));
  }

  @Test
  void argumentsAreCheckedBeforeAnythingIsSent() {
    assertThatThrownBy(() -> backend.acquire("", "me", "", LEASE))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> backend.replace("k", "me", "you", "", Duration.ZERO))
        .isInstanceOf(IllegalArgumentException.class);
    assertThat(store.calls).isEmpty();
  }

  private static LockFailureKind kindOf(CompletableFuture<?> f) throws InterruptedException {
    try {
      f.get(5, TimeUnit.SECONDS);
    } catch (ExecutionException e) {
      return ((LockBackendException) e.getCause()).kind();
    } catch (java.util.concurrent.TimeoutException e) {
      throw new AssertionError("the operation did not complete", e);
    }
    throw new AssertionError("the operation did not fail");
  }

  /** A store over a real one that loses writes, fails or hangs on command, and logs its calls. */
  static final class ScriptedStore implements VersionedRecordStore<Long> {
    final VersionedRecordStore<Long> delegate;
    final List<String> calls = new ArrayList<>();
    final List<Duration> leases = new ArrayList<>();
    final CompletableFuture<CompletableFuture<?>> hung = new CompletableFuture<>();
    int loseNextWrites;
    boolean partialLoss;
    boolean hangReads;
    Supplier<RuntimeException> failReads;
    int failReadsAfter;
    Duration resolution = Duration.ofMillis(1);

    ScriptedStore(VersionedRecordStore<Long> delegate) {
      this.delegate = delegate;
    }

    @Override
    public synchronized CompletableFuture<Optional<VersionedRecord<Long>>> read(String key) {
      calls.add("read");
      if (hangReads) {
        CompletableFuture<Optional<VersionedRecord<Long>>> never = new CompletableFuture<>();
        hung.complete(never);
        return never;
      }
      if (failReads != null && failReadsAfter-- <= 0) {
        RuntimeException e = failReads.get();
        if (e instanceof IllegalStateException) {
          throw e; // breaks the contract on purpose
        }
        return CompletableFuture.failedFuture(e);
      }
      return delegate.read(key);
    }

    @Override
    public synchronized CompletableFuture<WriteResult<Long>> create(String key, Claim claim) {
      leases.add(claim.lease());
      return log("create", () -> delegate.create(key, claim));
    }

    @Override
    public synchronized CompletableFuture<WriteResult<Long>> compareAndSet(
        String key, Long version, Claim claim) {
      leases.add(claim.lease());
      return log("cas", () -> delegate.compareAndSet(key, version, claim));
    }

    @Override
    public synchronized CompletableFuture<WriteResult<Long>> compareAndDelete(
        String key, Long version) {
      return log("delete", () -> delegate.compareAndDelete(key, version));
    }

    @Override
    public Duration leaseResolution() {
      return resolution;
    }

    private CompletableFuture<WriteResult<Long>> log(
        String call, Supplier<CompletableFuture<WriteResult<Long>>> write) {
      if (loseNextWrites > 0 || partialLoss) {
        loseNextWrites--;
        calls.add(call + "(lost)");
        return CompletableFuture.completedFuture(
            partialLoss ? WriteResult.lostAfterPartialWrite() : WriteResult.lost());
      }
      WriteResult<Long> r = write.get().join();
      calls.add(r.applied() ? call : call + "(lost)");
      return CompletableFuture.completedFuture(r);
    }
  }

  /** A ticker moved by hand; no timers needed here. */
  static final class TickerClock implements LockClock {
    private volatile long now = 1_000;

    void advance(Duration d) {
      now += d.toNanos();
    }

    @Override
    public long nanoTime() {
      return now;
    }

    @Override
    public Instant instant() {
      return Instant.EPOCH.plusNanos(now);
    }

    @Override
    public Timer schedule(Duration delay, Runnable task) {
      throw new UnsupportedOperationException("not needed by the record store");
    }
  }
}
