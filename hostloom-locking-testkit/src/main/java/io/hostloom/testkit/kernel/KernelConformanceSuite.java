package io.hostloom.testkit.kernel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.hostloom.locking.DistributedLock;
import io.hostloom.locking.LockBackendUnavailableException;
import io.hostloom.locking.LockFailureKind;
import io.hostloom.locking.LockHandle;
import io.hostloom.locking.LockNotAcquiredException;
import io.hostloom.locking.LockOptions;
import io.hostloom.locking.LockRetryPolicy;
import io.hostloom.locking.LossReason;
import io.hostloom.locking.OnLost;
import io.hostloom.locking.memory.InMemoryLockBackend;
import io.hostloom.locking.spi.LockBackend;
import io.hostloom.locking.testing.FaultInjectingLockBackend;
import io.hostloom.locking.testing.ManualLockClock;
import io.hostloom.locking.time.LockClock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The ten kernel conformance scenarios of the HostLoom lock contract, for any way of building a
 * {@link DistributedLock}: plain constructors, a Spring context, ... Subclass it and implement
 * {@link #newLock}: each call must return a new lock instance ("another service instance") over the
 * given backend and clock, with a namespace of your choice and otherwise default options.
 *
 * <p>The suite owns time: a {@link ManualLockClock} that it advances explicitly, so no scenario
 * sleeps. The backend every lock shares is {@link #newSharedBackend} (in-memory by default) behind
 * a {@link FaultInjectingLockBackend}. Locks are closed after each scenario when they are {@link
 * AutoCloseable}.
 */
public abstract class KernelConformanceSuite {
  /** The real-time bound on waiting for a background thread; scaled by the test time factor. */
  private static final long WAIT_SECONDS = 10;

  private ManualLockClock clock;
  private FaultInjectingLockBackend faults;
  private final List<DistributedLock> locks = new ArrayList<>();

  /** A new lock instance over {@code backend} on {@code clock}. */
  protected abstract DistributedLock newLock(LockBackend backend, LockClock clock);

  /** The backend all instances share; override to run the scenarios on another backend. */
  protected LockBackend newSharedBackend(LockClock clock) {
    return new InMemoryLockBackend(clock);
  }

  @BeforeEach
  final void setUpKernelConformance() {
    clock = new ManualLockClock();
    faults = new FaultInjectingLockBackend(newSharedBackend(clock));
  }

  @AfterEach
  final void tearDownKernelConformance() {
    faults.heal();
    for (DistributedLock l : locks) {
      l.close();
    }
    locks.clear();
  }

  /** A new instance over the shared, fault-injecting backend. */
  protected final DistributedLock instance() {
    DistributedLock l = newLock(faults, clock);
    locks.add(l);
    return l;
  }

  protected final ManualLockClock clock() {
    return clock;
  }

  protected final FaultInjectingLockBackend faults() {
    return faults;
  }

  private static LockOptions lease(Duration lease) {
    return LockOptions.builder().lease(lease).maxWait(Duration.ZERO).build();
  }

  private static long waitSeconds() {
    double f = Double.parseDouble(System.getProperty("hostloom.test.timeFactor", "1"));
    return (long) Math.ceil(WAIT_SECONDS * f);
  }

  @Test
  void exclusivityAcrossTwoInstances() {
    DistributedLock a = instance();
    DistributedLock b = instance();
    LockHandle held = a.tryAcquire("orders", lease(Duration.ofSeconds(30))).orElseThrow();
    assertThat(b.tryAcquire("orders")).isEmpty();

    held.close();

    assertThat(held.isHeld()).isFalse();
    Optional<LockHandle> next = b.tryAcquire("orders");
    assertThat(next).isPresent();
    next.get().close();
  }

  @Test
  void contentionPastMaxWaitThrowsLockNotAcquired() throws Exception {
    DistributedLock a = instance();
    DistributedLock b = instance();
    LockHandle held = a.tryAcquire("orders", lease(Duration.ofMinutes(1))).orElseThrow();
    LockOptions wait =
        LockOptions.builder()
            .maxWait(Duration.ofMillis(300))
            .retry(LockRetryPolicy.linear(10, Duration.ofMillis(50)))
            .build();

    CompletableFuture<String> run = b.executeWithLockAsync("orders", wait, h -> done("ran"));
    for (int i = 0; i < 20 && !run.isDone(); i++) {
      clock.advance(Duration.ofMillis(50));
    }

    assertThat(run).isCompletedExceptionally();
    Throwable e = cause(run);
    assertThat(e).isInstanceOf(LockNotAcquiredException.class);
    LockNotAcquiredException n = (LockNotAcquiredException) e;
    assertThat(n.key()).isEqualTo("orders");
    assertThat(n.attempts()).isGreaterThanOrEqualTo(1);
    assertThat(n.waited()).isLessThanOrEqualTo(Duration.ofMillis(350));
    held.close();
  }

  @Test
  void lostLeaseIsObservableAndTakenOver() {
    DistributedLock a = instance();
    DistributedLock b = instance();
    LockHandle held = a.tryAcquire("orders", lease(Duration.ofSeconds(1))).orElseThrow();
    CompletableFuture<LossReason> lost = held.lost();

    clock.advance(Duration.ofSeconds(1));

    assertThat(held.isHeld()).isFalse();
    assertThat(lost).isCompletedWithValue(LossReason.EXPIRED);
    Optional<LockHandle> next = b.tryAcquire("orders");
    assertThat(next).isPresent();
    next.get().close();
    held.close();
  }

  @Test
  void staleOwnerCannotReleaseTheNewOwner() {
    DistributedLock a = instance();
    DistributedLock b = instance();
    DistributedLock c = instance();
    LockHandle stale = a.tryAcquire("orders", lease(Duration.ofSeconds(1))).orElseThrow();
    clock.advance(Duration.ofSeconds(1));
    LockHandle owner = b.tryAcquire("orders", lease(Duration.ofMinutes(1))).orElseThrow();

    stale.close();

    assertThat(c.tryAcquire("orders")).isEmpty();
    assertThat(owner.isHeld()).isTrue();
    owner.close();
  }

  @Test
  void providerUnavailableThrowsProviderUnavailable() {
    DistributedLock a = instance();
    faults.failAll(LockFailureKind.UNAVAILABLE);

    assertThatThrownBy(() -> a.executeWithLock("orders", h -> "ran"))
        .isInstanceOfSatisfying(
            LockBackendUnavailableException.class,
            e -> {
              assertThat(e.key()).isEqualTo("orders");
              assertThat(e.kind()).isEqualTo(LockFailureKind.UNAVAILABLE);
            });
  }

  @Test
  void releaseFailureIsLoggedNotThrown() {
    DistributedLock a = instance();
    LockHandle held = a.tryAcquire("orders").orElseThrow();
    faults.failAll(LockFailureKind.OTHER);

    held.close(); // must not throw

    assertThat(faults.faulted()).isGreaterThanOrEqualTo(1);
    assertThat(held.isHeld()).isFalse();
  }

  @Test
  void actionExceptionPropagatesAndReleases() {
    DistributedLock a = instance();
    DistributedLock b = instance();
    IllegalStateException boom = new IllegalStateException("boom");

    assertThatThrownBy(
            () ->
                a.runWithLock(
                    "orders",
                    h -> {
                      throw boom;
                    }))
        .isSameAs(boom);

    Optional<LockHandle> next = b.tryAcquire("orders");
    assertThat(next).isPresent();
    next.get().close();
  }

  @Test
  void extendMovesTheLeaseEnd() {
    DistributedLock a = instance();
    LockHandle held = a.tryAcquire("orders", lease(Duration.ofSeconds(10))).orElseThrow();
    clock.advance(Duration.ofSeconds(5));

    Instant before = clock.instant();
    assertThat(held.extend(Duration.ofSeconds(10))).isTrue();
    Instant after = clock.instant();

    assertThat(held.leaseEnd())
        .isBetween(before.plus(Duration.ofSeconds(10)), after.plus(Duration.ofSeconds(10)));
    clock.advance(Duration.ofSeconds(6));
    assertThat(held.isHeld()).isTrue();
    held.close();
  }

  @Test
  void onLostCancelInterruptsTheAction() throws Exception {
    DistributedLock a = instance();
    LockOptions cancel =
        LockOptions.builder()
            .lease(Duration.ofSeconds(1))
            .maxWait(Duration.ZERO)
            .onLost(OnLost.CANCEL)
            .build();
    CountDownLatch started = new CountDownLatch(1);
    CompletableFuture<Object> outcome = new CompletableFuture<>();
    Thread t =
        new Thread(
            () -> {
              try {
                outcome.complete(
                    a.executeWithLock(
                        "orders",
                        cancel,
                        h -> {
                          started.countDown();
                          new CountDownLatch(1).await(); // waits until interrupted
                          return "finished";
                        }));
              } catch (Throwable e) {
                outcome.completeExceptionally(e);
              }
            },
            "conformance-action");
    t.start();
    assertThat(started.await(waitSeconds(), TimeUnit.SECONDS)).isTrue();

    clock.advance(Duration.ofSeconds(1));

    t.join(TimeUnit.SECONDS.toMillis(waitSeconds()));
    assertThat(outcome).isCompletedExceptionally();
    assertThat(cause(outcome)).isInstanceOf(InterruptedException.class);
  }

  @Test
  void abandonedAcquisitionLeavesTheKeyFree() throws Exception {
    DistributedLock a = instance();
    DistributedLock b = instance();
    faults.holdReplies();

    CompletableFuture<Optional<LockHandle>> pending = a.tryAcquireAsync("orders");
    assertThat(faults.heldReplyCount()).isEqualTo(1); // the backend decided the grant
    pending.cancel(false);
    faults.deliverReplies();

    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(waitSeconds());
    Optional<LockHandle> next = b.tryAcquire("orders");
    while (next.isEmpty() && System.nanoTime() < deadline) {
      clock.advance(Duration.ofMillis(10)); // lets a release bounded by the clock complete
      next = b.tryAcquire("orders");
    }
    assertThat(next).as("the abandoned grant was released well before its 30 s lease").isPresent();
    assertThat(clock.elapsed()).isLessThan(Duration.ofSeconds(30));
    next.get().close();
  }

  private static <T> CompletableFuture<T> done(T value) {
    return CompletableFuture.completedFuture(value);
  }

  private static Throwable cause(CompletableFuture<?> f) {
    try {
      f.get(0, TimeUnit.SECONDS);
      throw new AssertionError("completed normally");
    } catch (ExecutionException e) {
      return e.getCause();
    } catch (Exception e) {
      throw new AssertionError(e);
    }
  }
}
