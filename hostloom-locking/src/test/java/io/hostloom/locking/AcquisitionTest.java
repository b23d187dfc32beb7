package io.hostloom.locking;

import static io.hostloom.locking.KernelFixture.await;
import static io.hostloom.locking.KernelFixture.failure;
import static io.hostloom.locking.KernelFixture.lease;
import static io.hostloom.locking.KernelFixture.onThread;
import static io.hostloom.locking.KernelFixture.opts;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.hostloom.locking.spi.AcquireOutcome;
import io.hostloom.locking.spi.LockBackend;
import io.hostloom.locking.spi.LockBackendException;
import io.hostloom.locking.testing.CountingLockBackend.Operation;
import io.hostloom.locking.testing.ForwardingLockBackend;
import io.hostloom.locking.time.LockClock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/** Contract C (14–30): acquisition basics, retries, maxWait, failures, late grants. */
class AcquisitionTest {
  private final KernelFixture fx = new KernelFixture();

  private static Duration ms(long ms) {
    return Duration.ofMillis(ms);
  }

  private LockHandle holdElsewhere(String key) {
    return fx.lock().tryAcquire(key, lease(Duration.ofMinutes(1))).orElseThrow();
  }

  @Test
  void tryAcquireWithoutOptionsMakesExactlyOneCall() {
    DistributedLock lock = fx.lock();
    holdElsewhere("k");
    int before = fx.backend.calls("acquire").size();
    assertThat(lock.tryAcquire("k")).isEmpty();
    assertThat(fx.backend.calls("acquire")).hasSize(before + 1);
    assertThat(fx.clock.elapsed()).isZero();
  }

  @Test
  void executeWithoutOptionsUsesTheLockRetryPolicyWithoutMaxWait() {
    DistributedLock lock = fx.lock(b -> b.retry(LockRetryPolicy.defaultPolicy()));
    holdElsewhere("k");
    AtomicBoolean ran = new AtomicBoolean();
    CompletableFuture<Object> run =
        lock.executeWithLockAsync(
            "k",
            h -> {
              ran.set(true);
              return CompletableFuture.completedFuture(null);
            });
    for (int i = 0; i < 400 && !run.isDone(); i++) {
      fx.clock.advance(ms(10));
    }
    LockNotAcquiredException e = (LockNotAcquiredException) failure(run);
    assertThat(e.attempts()).isEqualTo(11);
    assertThat(fx.backend.calls("acquire")).hasSize(12); // 1 elsewhere + 11
    assertThat(e.waited()).isLessThanOrEqualTo(ms(3250));
    assertThat(ran).isFalse();
  }

  @Test
  void leaseDefaultsAndIsCappedAtMaxLease() {
    DistributedLock lock =
        fx.lock(b -> b.defaultLease(Duration.ofSeconds(1)).maxLease(Duration.ofSeconds(2)));
    Instant start = fx.clock.instant();
    LockHandle d = lock.tryAcquire("a").orElseThrow();
    assertThat(d.leaseEnd()).isEqualTo(start.plusSeconds(1));
    LockHandle capped = lock.tryAcquire("b", lease(Duration.ofSeconds(10))).orElseThrow();
    assertThat(capped.leaseEnd()).isEqualTo(start.plusSeconds(2));
    assertThat(fx.backend.calls("acquire").get(1).lease()).isEqualTo(Duration.ofSeconds(2));
    assertThatThrownBy(() -> opts().lease(Duration.ZERO))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void oneOwnerTokenPerAcquisitionReusedForRetriesAndRelease() {
    DistributedLock lock = fx.lock();
    LockHandle other = holdElsewhere("k");
    assertThat(lock.tryAcquire("k", opts().retry(LockRetryPolicy.immediate(2)).build())).isEmpty();
    List<RecordingBackend.Call> retries = fx.backend.calls("acquire").subList(1, 4);
    assertThat(retries)
        .extracting(RecordingBackend.Call::owner)
        .containsOnly(retries.get(0).owner());
    assertThat(retries.get(0).owner()).matches("[0-9a-f]{32}");
    other.close();
    LockHandle h = lock.tryAcquire("k").orElseThrow();
    String owner = fx.backend.calls("acquire").get(4).owner();
    assertThat(owner).isNotEqualTo(retries.get(0).owner()).matches("[0-9a-f]{32}");
    h.close();
    assertThat(fx.backend.calls("release").get(1).owner()).isEqualTo(owner);
  }

  @Test
  void successReportsAcquiredAndActive() {
    var unused = fx.lock().tryAcquire("k").orElseThrow();
    assertThat(fx.events.events())
        .containsSubsequence("acquire-start:k:null", "acquire:ACQUIRED:1", "active+1");
  }

  @Test
  void twoInstancesExcludeEachOther() {
    LockHandle a = fx.lock().tryAcquire("k").orElseThrow();
    DistributedLock b = fx.lock();
    assertThat(b.tryAcquire("k")).isEmpty();
    a.close();
    assertThat(b.tryAcquire("k")).isPresent();
  }

  @Test
  void retryExhaustion() {
    DistributedLock lock = fx.lock();
    holdElsewhere("k");
    fx.events.clear();
    assertThatThrownBy(() -> lock.executeWithLock("k", h -> 1))
        .isInstanceOfSatisfying(
            LockNotAcquiredException.class,
            e -> {
              assertThat(e.attempts()).isEqualTo(4);
              assertThat(e.waited()).isZero();
              assertThat(e.key()).isEqualTo("k");
              assertThat(e.getMessage()).contains("'k'").contains("4 attempts");
            });
    assertThat(fx.backend.calls("acquire")).hasSize(5);
    assertThat(lock.tryAcquire("k", LockOptions.DEFAULTS)).isEmpty();
    assertThat(fx.events.matching("acquire:"))
        .containsExactly("acquire:NOT_ACQUIRED:4", "acquire:NOT_ACQUIRED:4");
    assertThatThrownBy(() -> lock.acquire("k")).isInstanceOf(LockNotAcquiredException.class);
  }

  @Test
  void maxWaitHundredWithFortyMsIntervalMakesThreeAttempts() {
    DistributedLock lock = fx.lock();
    holdElsewhere("k");
    LockOptions o = opts().maxWait(ms(100)).retry(LockRetryPolicy.interval(5, ms(40))).build();
    CompletableFuture<LockHandle> f = lock.acquireAsync("k", o);
    fx.clock.advance(ms(40));
    fx.clock.advance(ms(40));
    LockNotAcquiredException e = (LockNotAcquiredException) failure(f);
    assertThat(fx.backend.times("acquire").subList(1, 4)).containsExactly(ms(0), ms(40), ms(80));
    assertThat(e.attempts()).isEqualTo(3);
    assertThat(e.waited()).isEqualTo(ms(80));
    assertThat(fx.clock.pendingTimers()).isEqualTo(1); // only the other holder's lease timer
  }

  @Test
  void blockingAcquireWaitsOnTheClockWithoutSleeping() {
    DistributedLock lock = fx.lock();
    holdElsewhere("k");
    LockOptions o = opts().maxWait(ms(100)).retry(LockRetryPolicy.interval(5, ms(40))).build();
    CompletableFuture<LockHandle> f = onThread(() -> lock.acquire("k", o));
    for (int call = 2; call <= 3; call++) {
      int n = call;
      await(() -> fx.backend.calls("acquire").size() == n && fx.clock.pendingTimers() == 2);
      fx.clock.advance(ms(40));
    }
    assertThat(failure(f)).isInstanceOf(LockNotAcquiredException.class);
    assertThat(fx.backend.calls("acquire")).hasSize(4);
  }

  /** A clock whose timers fire {@code lateBy} after they are due, as on a busy machine. */
  private static LockClock late(LockClock clock, Duration lateBy) {
    return new LockClock() {
      @Override
      public long nanoTime() {
        return clock.nanoTime();
      }

      @Override
      public Instant instant() {
        return clock.instant();
      }

      @Override
      public Timer schedule(Duration delay, Runnable task) {
        return clock.schedule(delay.plus(lateBy), task);
      }
    };
  }

  @Test
  void noAttemptIsSentOnceMaxWaitHasPassed() {
    holdElsewhere("k");
    DistributedLock lock =
        DistributedLock.builder(KernelFixture.options().build(), fx.backend)
            .clock(late(fx.clock, ms(100)))
            .logger(fx.log)
            .build();
    LockOptions o = opts().maxWait(ms(100)).retry(LockRetryPolicy.interval(5, ms(40))).build();
    CompletableFuture<LockHandle> f = lock.acquireAsync("k", o);
    fx.clock.advance(ms(140)); // the 40 ms delay fires at 140 ms, past maxWait
    LockNotAcquiredException e = (LockNotAcquiredException) failure(f);
    assertThat(e.attempts()).isEqualTo(1);
    assertThat(fx.backend.calls("acquire")).hasSize(2);
  }

  @Test
  void maxWaitZeroWaitsForTheReplyWithoutBound() {
    DistributedLock lock = fx.lock();
    fx.faults.holdReplies();
    CompletableFuture<Optional<LockHandle>> f = lock.tryAcquireAsync("k");
    assertThat(fx.clock.pendingTimers()).isEqualTo(1); // the lease-end timer only
    fx.clock.advance(Duration.ofSeconds(29));
    assertThat(f).isNotDone();
    fx.faults.deliverReplies();
    assertThat(KernelFixture.value(f)).isPresent();
  }

  @Test
  void interruptDuringRetryDelayEndsTheWaitAndLeavesNothing() {
    DistributedLock lock = fx.lock();
    LockHandle other = holdElsewhere("k");
    Thread[] caller = new Thread[1];
    CompletableFuture<Boolean> flag = new CompletableFuture<>();
    CompletableFuture<LockHandle> f =
        onThread(
            () -> {
              caller[0] = Thread.currentThread();
              try {
                return lock.acquire(
                    "k", opts().retry(LockRetryPolicy.interval(5, ms(1000))).build());
              } finally {
                flag.complete(Thread.currentThread().isInterrupted());
              }
            });
    await(() -> fx.clock.pendingTimers() == 2);
    caller[0].interrupt();
    assertThat(failure(f)).isInstanceOf(LockInterruptedException.class);
    assertThat(KernelFixture.value(flag)).as("interrupt flag restored").isTrue();
    assertThat(fx.clock.pendingTimers()).isEqualTo(1);
    other.close();
    fx.clock.advance(Duration.ofSeconds(5));
    assertThat(fx.backend.calls("acquire")).hasSize(2);
    assertThat(fx.memory.liveCount()).isZero();
  }

  @Test
  void backendFailureIsTypedAndNeverRetried() {
    for (LockFailureKind kind : LockFailureKind.values()) {
      KernelFixture f2 = new KernelFixture();
      DistributedLock lock = f2.lock();
      f2.faults.failNext(1, kind, Operation.ACQUIRE);
      assertThatThrownBy(
              () -> lock.tryAcquire("k", opts().retry(LockRetryPolicy.immediate(3)).build()))
          .isInstanceOfSatisfying(
              LockBackendUnavailableException.class,
              e -> {
                assertThat(e.kind()).isEqualTo(kind);
                assertThat(e.getCause()).isInstanceOf(LockBackendException.class);
                assertThat(e.attempts()).isEqualTo(1);
                assertThat(e.key()).isEqualTo("k");
              });
      assertThat(f2.backend.calls("acquire")).hasSize(1);
      assertThat(f2.clock.pendingTimers()).isZero();
      assertThat(f2.events.matching("acquire:")).containsExactly("acquire:UNAVAILABLE:1");
    }
  }

  @Test
  void anyOtherExceptionIsKindOtherWithTheOriginalAsCause() {
    for (Throwable error :
        new Throwable[] {new IllegalStateException("x"), new TimeoutException("t")}) {
      RecordingBackend failing =
          new RecordingBackend(new ThrowingAcquireBackend(fx.memory, error), fx.clock);
      DistributedLock lock = fx.lock(b -> b, failing);
      assertThatThrownBy(() -> lock.executeWithLock("k", h -> 1))
          .isInstanceOfSatisfying(
              LockBackendUnavailableException.class,
              e -> {
                assertThat(e.kind()).isEqualTo(LockFailureKind.OTHER);
                assertThat(e.getCause()).isSameAs(error);
              });
    }
  }

  @Test
  void aGrantArrivingWhenTheLeaseIsSpentIsRejectedAndReleased() {
    SlowBackend slow = new SlowBackend(fx.backend, fx.clock, Duration.ofSeconds(1));
    DistributedLock lock = fx.lock(b -> b, slow);
    AtomicBoolean ran = new AtomicBoolean();
    assertThatThrownBy(
            () ->
                lock.executeWithLock(
                    "k",
                    lease(Duration.ofSeconds(1)),
                    h -> {
                      ran.set(true);
                      return 1;
                    }))
        .isInstanceOfSatisfying(
            LockBackendUnavailableException.class,
            e -> {
              assertThat(e.kind()).isEqualTo(LockFailureKind.TIMEOUT);
              assertThat(e.getCause())
                  .isInstanceOfSatisfying(
                      LockBackendException.class,
                      c -> assertThat(c.kind()).isEqualTo(LockFailureKind.TIMEOUT));
              assertThat(e.attempts()).isEqualTo(1);
              assertThat(e.waited()).isEqualTo(Duration.ofSeconds(1));
            });
    assertThat(ran).isFalse();
    assertThat(fx.backend.calls("release")).hasSize(1);
    assertThat(fx.events.matching("orphan:")).containsExactly("orphan:ABSENT"); // statement 36
  }

  @Test
  void aGrantOneTickBeforeTheLeaseEndIsAccepted() {
    SlowBackend slow = new SlowBackend(fx.backend, fx.clock, Duration.ofSeconds(1).minusNanos(1));
    LockHandle h =
        fx.lock(b -> b, slow).tryAcquire("k", lease(Duration.ofSeconds(1))).orElseThrow();
    assertThat(h.isHeld()).isTrue();
    assertThat(h.leaseEnd()).isEqualTo(fx.clock.instant().plusNanos(1));
  }

  /** Advances the clock by {@code latency} inside each acquire, after applying it. */
  static final class SlowBackend extends ForwardingLockBackend {
    private final io.hostloom.locking.testing.ManualLockClock clock;
    private final Duration latency;

    SlowBackend(
        LockBackend inner, io.hostloom.locking.testing.ManualLockClock clock, Duration latency) {
      super(inner);
      this.clock = clock;
      this.latency = latency;
    }

    @Override
    public CompletableFuture<AcquireOutcome> acquire(
        String key, String owner, String data, Duration lease) {
      CompletableFuture<AcquireOutcome> f = super.acquire(key, owner, data, lease);
      clock.advance(latency);
      return f;
    }
  }

  /** Completes every acquire exceptionally with a given throwable. */
  static final class ThrowingAcquireBackend extends ForwardingLockBackend {
    private final Throwable error;

    ThrowingAcquireBackend(LockBackend inner, Throwable error) {
      super(inner);
      this.error = error;
    }

    @Override
    public CompletableFuture<AcquireOutcome> acquire(
        String key, String owner, String data, Duration lease) {
      return CompletableFuture.failedFuture(error);
    }
  }
}
