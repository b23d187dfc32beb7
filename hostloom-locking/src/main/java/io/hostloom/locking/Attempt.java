package io.hostloom.locking;

import io.hostloom.locking.LockEventListener.OrphanResult;
import io.hostloom.locking.spi.AcquireOutcome;
import io.hostloom.locking.spi.LockBackendException;
import io.hostloom.locking.spi.ReleaseOutcome;
import io.hostloom.locking.time.LockClock;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.function.BiConsumer;

/**
 * One backend acquire call of an {@link Acquisition}. While its reply is outstanding it owns
 * exactly one timer, which cancels the call when request time + lease is reached. It sends at most
 * one owner-checked release, however often it is abandoned.
 */
// Implements BiConsumer (the reply callback) and Runnable (the lease-end timer task) so an attempt
// that waits for its reply allocates no lambdas.
final class Attempt implements BiConsumer<AcquireOutcome, Throwable>, Runnable {
  private final Acquisition<?> acq;
  private final LockRuntime rt;
  private final long requestNanos;
  private final boolean woken; // sent on a release signal while a retry step runs
  private CompletableFuture<AcquireOutcome> future;
  private volatile LockClock.Timer leaseTimer;
  private boolean releaseSent; // guarded by this

  /** Set (under the acquisition's monitor) when nobody waits for this reply any more. */
  private boolean abandoned;

  Attempt(Acquisition<?> acq, LockRuntime rt, long requestNanos, boolean woken) {
    this.acq = acq;
    this.rt = rt;
    this.requestNanos = requestNanos;
    this.woken = woken;
  }

  long requestNanos() {
    return requestNanos;
  }

  /** Sent on a release signal while a retry step ran, not by the step's end. */
  boolean woken() {
    return woken;
  }

  /** Called under the acquisition's monitor. */
  boolean isAbandoned() {
    return abandoned;
  }

  /** Called under the acquisition's monitor. */
  void markAbandoned() {
    abandoned = true;
  }

  CompletableFuture<AcquireOutcome> send() {
    CompletableFuture<AcquireOutcome> f;
    try {
      f = rt.backend().acquire(acq.backendKey, acq.owner, "", acq.lease);
      if (f == null) {
        f = CompletableFuture.failedFuture(new NullPointerException("backend returned null"));
      }
    } catch (RuntimeException e) {
      f = CompletableFuture.failedFuture(e);
    }
    future = f;
    return f;
  }

  /** Waits asynchronously: arms the lease-end timer, then listens for the reply. */
  void awaitReply(CompletableFuture<AcquireOutcome> f) {
    LockClock clock = rt.clock();
    long left = requestNanos + acq.leaseNanos - clock.nanoTime();
    leaseTimer = clock.scheduleNanos(Math.max(0, left), this);
    var unused = f.whenComplete(this);
  }

  /** The lease-end timer: the lease is spent, so stop the call (it may still have been applied). */
  @Override
  public void run() {
    future.cancel(false);
  }

  /** The lock was closed while this call was outstanding. */
  void cancelCall() {
    CompletableFuture<AcquireOutcome> f = future;
    if (f != null) {
      f.cancel(false);
    }
  }

  @Override
  public void accept(AcquireOutcome outcome, Throwable error) {
    LockClock.Timer t = leaseTimer;
    if (t != null) {
      t.cancel();
    }
    acq.proceed(acq.onReply(this, outcome, error));
  }

  /** A reply nobody waits for: release what may be held. */
  void afterAbandon(AcquireOutcome outcome, Throwable error) {
    if (error == null) {
      if (outcome.granted()) {
        releaseOrphan();
      }
    } else if (!(error instanceof LockBackendException b)
        || b.kind() != LockFailureKind.UNAVAILABLE) {
      releaseOrphan();
    }
  }

  /** One best-effort owner-checked release that nobody waits for. */
  void releaseOrphan() {
    synchronized (this) {
      if (releaseSent) {
        return;
      }
      releaseSent = true;
    }
    CompletableFuture<ReleaseOutcome> f;
    try {
      f = rt.backend().release(acq.backendKey, acq.owner);
    } catch (RuntimeException e) {
      f = CompletableFuture.failedFuture(e);
    }
    if (f.isDone()) {
      orphanReleased(f);
      return;
    }
    CompletableFuture<ReleaseOutcome> rf = f;
    long timeout = Math.min(acq.leaseNanos, LockRuntime.ORPHAN_RELEASE_TIMEOUT_NANOS);
    LockClock.Timer timer = rt.clock().schedule(Duration.ofNanos(timeout), () -> rf.cancel(false));
    var unused =
        f.whenComplete(
            (r, e) -> {
              timer.cancel();
              orphanReleased(rf);
            });
  }

  private void orphanReleased(CompletableFuture<ReleaseOutcome> f) {
    OrphanResult result;
    Throwable error = null;
    try {
      result = f.join().released() ? OrphanResult.RELEASED : OrphanResult.ABSENT;
    } catch (RuntimeException e) {
      result = OrphanResult.FAILED;
      error = LockRuntime.unwrap(e);
    }
    if (rt.log().isDebugEnabled()) {
      String outcome = result.name().toLowerCase(java.util.Locale.ROOT);
      if (error == null) {
        rt.log()
            .debug(
                "LockOrphanRelease [3108]: abandoned acquisition of lock '{}' released: {}",
                acq.key,
                outcome);
      } else {
        rt.log()
            .debug(
                "LockOrphanRelease [3108]: abandoned acquisition of lock '{}' released: {}",
                acq.key,
                outcome,
                error);
      }
    }
    rt.events().orphanReleased(acq.key, result);
  }
}
