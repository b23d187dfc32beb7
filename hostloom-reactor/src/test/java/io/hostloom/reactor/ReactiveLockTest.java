package io.hostloom.reactor;

import static org.assertj.core.api.Assertions.assertThat;

import io.hostloom.locking.DistributedLock;
import io.hostloom.locking.LockHandle;
import io.hostloom.locking.LockNotAcquiredException;
import io.hostloom.locking.LockOptions;
import io.hostloom.locking.LockRetryPolicy;
import io.hostloom.locking.LossReason;
import io.hostloom.locking.OnLost;
import io.hostloom.locking.memory.InMemoryLockBackend;
import io.hostloom.locking.testing.CountingLockBackend;
import io.hostloom.locking.testing.CountingLockBackend.Operation;
import io.hostloom.locking.testing.FaultInjectingLockBackend;
import io.hostloom.locking.testing.ManualLockClock;
import java.time.Duration;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import reactor.core.Disposable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.test.StepVerifier;
import reactor.test.publisher.TestPublisher;

/** The reactive forms over the in-memory backend, time on the manual clock. */
class ReactiveLockTest {
  private static final Duration VERIFY = Duration.ofSeconds(10);
  private static final LockOptions NO_WAIT =
      LockOptions.builder().lease(Duration.ofSeconds(30)).maxWait(Duration.ZERO).build();

  private final ManualLockClock clock = new ManualLockClock();
  private final CountingLockBackend counting =
      new CountingLockBackend(new InMemoryLockBackend(clock));
  private final FaultInjectingLockBackend faults = new FaultInjectingLockBackend(counting);
  private final DistributedLock lock = TestLocks.over(faults, clock);
  private final ReactiveLock reactive = ReactiveLock.of(lock);

  @AfterEach
  void close() {
    faults.heal();
    lock.close();
  }

  private boolean free(String key) {
    return lock.tryAcquire(key).map(h -> closed(h)).orElse(false);
  }

  private static boolean closed(LockHandle h) {
    h.close();
    return true;
  }

  @Test
  void acquireIsLazyAndEmitsAHeldHandle() {
    Mono<LockHandle> acquire = reactive.acquire("orders", NO_WAIT);
    assertThat(counting.count(Operation.ACQUIRE)).isZero();

    StepVerifier.create(acquire)
        .assertNext(
            h -> {
              assertThat(h.key()).isEqualTo("orders");
              assertThat(h.isHeld()).isTrue();
              h.close();
            })
        .expectComplete()
        .verify(VERIFY);
    assertThat(counting.count(Operation.ACQUIRE)).isEqualTo(1);
  }

  @Test
  void tryAcquireCompletesEmptyWhenBusyAndAcquireErrors() {
    LockHandle held = lock.tryAcquire("orders", NO_WAIT).orElseThrow();

    StepVerifier.create(reactive.tryAcquire("orders")).expectComplete().verify(VERIFY);
    StepVerifier.create(reactive.acquire("orders", NO_WAIT))
        .expectError(LockNotAcquiredException.class)
        .verify(VERIFY);

    held.close();
    StepVerifier.create(reactive.tryAcquire("orders"))
        .assertNext(LockHandle::close)
        .expectComplete()
        .verify(VERIFY);
  }

  @Test
  void aBadKeyIsAnErrorSignal() {
    StepVerifier.create(reactive.acquire("has space"))
        .expectError(IllegalArgumentException.class)
        .verify(VERIFY);
  }

  @Test
  void contentionPastMaxWaitOnTheManualClock() {
    LockHandle held = lock.tryAcquire("orders", NO_WAIT).orElseThrow();
    LockOptions wait =
        LockOptions.builder()
            .maxWait(Duration.ofMillis(300))
            .retry(LockRetryPolicy.linear(10, Duration.ofMillis(50)))
            .build();
    AtomicReference<Throwable> error = new AtomicReference<>();
    Disposable d = reactive.acquire("orders", wait).subscribe(h -> {}, error::set);

    for (int i = 0; i < 20 && error.get() == null; i++) {
      clock.advance(Duration.ofMillis(50));
    }

    assertThat(error.get()).isInstanceOf(LockNotAcquiredException.class);
    assertThat(d.isDisposed()).isTrue();
    held.close();
  }

  @Test
  void withLockReleasesOnComplete() {
    StepVerifier.create(
            reactive.withLock(
                "orders",
                NO_WAIT,
                h -> {
                  assertThat(free("orders")).isFalse();
                  return Mono.just(h.fencingToken() > 0 ? "ran" : "no token");
                }))
        .expectNext("ran")
        .expectComplete()
        .verify(VERIFY);
    assertThat(free("orders")).isTrue();
  }

  @Test
  void withLockReleasesOnErrorAndPropagatesIt() {
    IllegalStateException boom = new IllegalStateException("boom");
    StepVerifier.create(reactive.withLock("orders", NO_WAIT, h -> Mono.error(boom)))
        .expectErrorMatches(e -> e == boom)
        .verify(VERIFY);
    assertThat(free("orders")).isTrue();
  }

  @Test
  void withLockReleasesOnCancel() {
    TestPublisher<String> open = TestPublisher.create();
    StepVerifier.create(reactive.withLockMany("orders", NO_WAIT, h -> open))
        .then(() -> assertThat(free("orders")).isFalse())
        .then(() -> open.next("x"))
        .expectNext("x")
        .thenCancel()
        .verify(VERIFY);
    open.assertCancelled();
    assertThat(free("orders")).isTrue();
  }

  @Test
  void withLockManyHoldsTheLockForEveryValue() {
    StepVerifier.create(
            reactive.withLockMany(
                "orders", NO_WAIT, h -> Flux.range(1, 3).map(i -> free("orders") ? -i : i)))
        .expectNext(1, 2, 3)
        .expectComplete()
        .verify(VERIFY);
    assertThat(free("orders")).isTrue();
  }

  @Test
  void onLostCancelCancelsTheActionAndErrors() {
    LockOptions cancel =
        LockOptions.builder()
            .lease(Duration.ofSeconds(1))
            .maxWait(Duration.ZERO)
            .onLost(OnLost.CANCEL)
            .build();
    TestPublisher<String> body = TestPublisher.create();
    StepVerifier.create(reactive.withLock("orders", cancel, h -> body.mono()))
        .then(() -> clock.advance(Duration.ofSeconds(1)))
        .expectError(CancellationException.class)
        .verify(VERIFY);
    body.assertCancelled();
  }

  @Test
  void onLostObserveLetsTheActionFinish() {
    LockOptions observe =
        LockOptions.builder().lease(Duration.ofSeconds(1)).maxWait(Duration.ZERO).build();
    TestPublisher<String> body = TestPublisher.create();
    StepVerifier.create(reactive.withLock("orders", observe, h -> body.mono()))
        .then(() -> clock.advance(Duration.ofSeconds(1)))
        .then(() -> body.emit("done"))
        .expectNext("done")
        .expectComplete()
        .verify(VERIFY);
  }

  @Test
  void cancellingAWaitingAcquireAbandonsItAndReleasesTheLateGrant() {
    faults.holdReplies();
    Disposable pending = reactive.acquire("orders", NO_WAIT).subscribe();
    assertThat(faults.heldReplyCount()).isEqualTo(1); // the command was sent and applied

    pending.dispose();
    assertThat(counting.count(Operation.RELEASE)).isZero(); // nothing to release yet
    faults.deliverReplies(); // the grant arrives after the cancellation

    for (int i = 0; i < 100 && counting.count(Operation.RELEASE) == 0; i++) {
      clock.advance(Duration.ofMillis(10));
    }
    assertThat(counting.count(Operation.ACQUIRE)).isEqualTo(1); // not re-sent, not cancelled
    assertThat(counting.count(Operation.RELEASE)).isEqualTo(1); // one owner-checked release
    assertThat(free("orders")).isTrue();
    assertThat(clock.elapsed()).isLessThan(Duration.ofSeconds(30));
  }

  @Test
  void cancellingWithLockWhileAcquiringNeverRunsTheAction() {
    faults.holdReplies();
    CompletableFuture<Boolean> ran = new CompletableFuture<>();
    Disposable pending =
        reactive
            .withLock("orders", NO_WAIT, h -> Mono.fromRunnable(() -> ran.complete(true)))
            .subscribe();
    pending.dispose();
    faults.deliverReplies();
    for (int i = 0; i < 100 && counting.count(Operation.RELEASE) == 0; i++) {
      clock.advance(Duration.ofMillis(10));
    }
    assertThat(ran).isNotDone();
    assertThat(free("orders")).isTrue();
  }

  @Test
  void lostEmitsTheReasonAndItsCancellationLeavesTheHandleAlone() {
    LockHandle held =
        lock.tryAcquire(
                "orders",
                LockOptions.builder().lease(Duration.ofSeconds(1)).maxWait(Duration.ZERO).build())
            .orElseThrow();
    ReactiveLock.lost(held).subscribe().dispose(); // one observer goes away

    StepVerifier.create(ReactiveLock.lost(held))
        .then(() -> clock.advance(Duration.ofSeconds(1)))
        .expectNext(LossReason.EXPIRED)
        .expectComplete()
        .verify(VERIFY);
    assertThat(held.lost()).isCompletedWithValue(LossReason.EXPIRED);
  }

  @Test
  void extendMovesTheLeaseEnd() {
    LockHandle held =
        lock.tryAcquire(
                "orders",
                LockOptions.builder().lease(Duration.ofSeconds(10)).maxWait(Duration.ZERO).build())
            .orElseThrow();
    clock.advance(Duration.ofSeconds(5));

    StepVerifier.create(ReactiveLock.extend(held, Duration.ofSeconds(10)))
        .expectNext(true)
        .expectComplete()
        .verify(VERIFY);
    assertThat(held.leaseEnd()).isEqualTo(clock.instant().plus(Duration.ofSeconds(10)));
    clock.advance(Duration.ofSeconds(6));
    assertThat(held.isHeld()).isTrue();

    StepVerifier.create(ReactiveLock.release(held)).expectComplete().verify(VERIFY);
    StepVerifier.create(ReactiveLock.extend(held, Duration.ofSeconds(10)))
        .expectNext(false)
        .expectComplete()
        .verify(VERIFY);
  }
}
