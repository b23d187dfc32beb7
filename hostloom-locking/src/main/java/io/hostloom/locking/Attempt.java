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
final class Attempt implements BiConsumer<AcquireOutcome, Throwable>, Runnable {
  private final Acquisition acq;
  final long requestNanos;
  final boolean woken; // sent on a release signal while a retry step runs, not by the step's end
  private CompletableFuture<AcquireOutcome> future;
  private volatile LockClock.Timer leaseTimer;
  private boolean releaseSent; // guarded by this

  /** Set (under the acquisition's monitor) when nobody waits for this reply any more. */
  boolean abandoned;

  Attempt(Acquisition acq, long requestNanos, boolean woken) {
    this.acq = acq;
    this.requestNanos = requestNanos;
    this.woken = woken;
  }

  CompletableFuture<AcquireOutcome> send() {
    CompletableFuture<AcquireOutcome> f;
    try {
      f = acq.lock.backend.acquire(acq.backendKey, acq.owner, "", acq.lease);
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
    LockClock clock = acq.lock.clock;
    long left = requestNanos + acq.leaseNanos - clock.nanoTime();
    leaseTimer = clock.schedule(Duration.ofNanos(Math.max(0, left)), this);
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
    ComposedLock lock = acq.lock;
    CompletableFuture<ReleaseOutcome> f;
    try {
      f = lock.backend.release(acq.backendKey, acq.owner);
    } catch (RuntimeException e) {
      f = CompletableFuture.failedFuture(e);
    }
    if (f.isDone()) {
      orphanReleased(f);
      return;
    }
    CompletableFuture<ReleaseOutcome> rf = f;
    long timeout = Math.min(acq.leaseNanos, ComposedLock.ORPHAN_RELEASE_TIMEOUT_NANOS);
    LockClock.Timer timer = lock.clock.schedule(Duration.ofNanos(timeout), () -> rf.cancel(false));
    var unused =
        f.whenComplete(
            (r, e) -> {
              timer.cancel();
              orphanReleased(rf);
            });
  }

  private void orphanReleased(CompletableFuture<ReleaseOutcome> f) {
    ComposedLock lock = acq.lock;
    OrphanResult result;
    Throwable error = null;
    try {
      result = f.join().released() ? OrphanResult.RELEASED : OrphanResult.ABSENT;
    } catch (RuntimeException e) {
      result = OrphanResult.FAILED;
      error = ComposedLock.unwrap(e);
    }
    if (lock.log.isDebugEnabled()) {
      String outcome = result.name().toLowerCase(java.util.Locale.ROOT);
      if (error == null) {
        lock.log.debug(
            "LockOrphanRelease [3108]: abandoned acquisition of lock '{}' released: {}",
            acq.key,
            outcome);
      } else {
        lock.log.debug(
            "LockOrphanRelease [3108]: abandoned acquisition of lock '{}' released: {}",
            acq.key,
            outcome,
            error);
      }
    }
    lock.listener.orphanReleased(lock.namespace, acq.key, result);
  }
}
