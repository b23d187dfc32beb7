package io.hostloom.locking;

import io.hostloom.locking.LockEventListener.AcquireResult;
import io.hostloom.locking.spi.AcquireOutcome;
import io.hostloom.locking.spi.LockBackendException;
import io.hostloom.locking.spi.ReleaseSignal;
import io.hostloom.locking.time.LockClock;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;

/**
 * One acquisition call: a loop of {@link Attempt}s on one owner token, driven inline on the
 * caller's thread while replies are synchronous, and by backend callbacks and clock timers
 * otherwise. The {@link #result} future is created only at the first hand-off to another thread;
 * completing it is the single point where "the caller got the handle" is decided, so a caller that
 * gives up at the same moment can never leak a grant.
 *
 * <p>With a {@link ReleaseSignal}, an attempt that may be followed by a retry wait subscribes
 * before it is sent; the wait then ends at the policy's delay or when the signal fires, whichever
 * is first. The subscription future doubles as the identity of that wait, so a delay timer and a
 * signal that end the same wait at the same moment start only one attempt.
 */
final class Acquisition implements Runnable {
  /** Value: the handle; not acquired: {@link LockNotAcquiredException}. */
  static final int ACQUIRE = 0;

  /** Value: the handle or null. */
  static final int TRY = 1;

  /** Value: {@code Optional} of the handle. */
  static final int TRY_ASYNC = 2;

  final ComposedLock lock;
  final String key;
  final String backendKey;
  final String owner;
  final Duration lease;
  final long leaseNanos;
  final OnLost onLost;
  final boolean autoExtend;
  final long startNanos;
  private final long maxWaitNanos; // -1: none
  private final LockRetryPolicy retry;
  private final int mode;
  private final Object context;

  // guarded by this
  private int attempts;
  private boolean done;
  private Attempt current;
  private LockClock.Timer delayTimer;
  private LockClock.Timer maxWaitTimer;
  private CompletableFuture<Object> result;
  private CompletableFuture<Boolean> signal; // subscription for the current attempt and its wait
  private boolean signalled; // the signal fired before the wait began: retry at once
  private long plannedDelay = -1; // the delay drawn for the current attempt when subscribing

  // the outcome when everything completed inline on the caller's thread (result == null)
  private Object inlineValue;
  private RuntimeException inlineError;

  Acquisition(
      ComposedLock lock,
      String key,
      String backendKey,
      LockOptions options,
      int mode,
      Object parentContext) {
    this.lock = lock;
    this.key = key;
    this.backendKey = backendKey;
    this.mode = mode;
    this.owner = lock.newOwner();
    this.leaseNanos = lock.leaseNanos(options);
    this.lease = lock.leaseDuration(options, leaseNanos);
    Duration mw = options.maxWaitOrNull();
    this.maxWaitNanos = mw == null ? -1 : ComposedLock.nanos(mw);
    LockRetryPolicy r = options.retryOrNull();
    this.retry = r != null ? r : lock.options.retry();
    Boolean ae = options.autoExtendOrNull();
    this.autoExtend = ae != null ? ae : lock.options.autoExtend();
    this.onLost = options.onLost();
    this.startNanos = lock.clock.nanoTime();
    this.context = lock.listener.acquireStarted(lock.namespace, key, parentContext);
  }

  /** Runs the first attempts on the caller's thread. */
  void start() {
    run();
  }

  /** Sends attempts while replies are synchronous and retries immediate; also the delay timer. */
  @Override
  public void run() {
    while (true) {
      long now = lock.clock.nanoTime();
      if (maxWaitNanos > 0 && now - startNanos >= maxWaitNanos) {
        finishNotAcquired(now);
        return;
      }
      Attempt a = new Attempt(this, now);
      CompletableFuture<Boolean> endedWait;
      int n;
      synchronized (this) {
        if (done) {
          return;
        }
        delayTimer = null;
        n = ++attempts;
        current = a;
        endedWait = signal;
        signal = null;
        signalled = false;
        plannedDelay = -1;
      }
      if (endedWait != null) {
        endedWait.cancel(false); // the wait is over, however it ended
      }
      if (lock.releaseSignal != null) {
        subscribe(lock.releaseSignal, n, now);
      }
      CompletableFuture<AcquireOutcome> f = a.send();
      if (f.isDone()) {
        AcquireOutcome o = null;
        Throwable error = null;
        try {
          o = f.join();
        } catch (CompletionException | CancellationException e) {
          error = e;
        }
        if (onReply(a, o, error)) {
          continue;
        }
        return;
      }
      synchronized (this) {
        ensureResult();
        if (maxWaitNanos > 0 && maxWaitTimer == null) {
          maxWaitTimer =
              lock.clock.schedule(
                  Duration.ofNanos(startNanos + maxWaitNanos - now), this::onMaxWait);
        }
      }
      a.awaitReply(f);
      if (lock.isClosed()) {
        closedByLock();
      }
      return;
    }
  }

  /**
   * Subscribes to the key's release signal before attempt {@code n} is sent, when a retry wait may
   * follow it. The attempt's delay is drawn here (as the signal's bound) and used by {@link
   * #onReply}, so the wait's arithmetic is the same as without a signal.
   */
  private void subscribe(ReleaseSignal rs, int n, long now) {
    if (n > retry.retryLimit() || maxWaitNanos == 0) {
      return; // no retry follows this attempt
    }
    long d = retry.delayNanos(n);
    CompletableFuture<Boolean> s = null;
    if (d > 0 && (maxWaitNanos < 0 || d < maxWaitNanos - (now - startNanos))) {
      try {
        s = rs.awaitRelease(backendKey, Duration.ofNanos(d));
      } catch (RuntimeException e) {
        s = null; // a broken signal costs only the wake-up: poll
      }
    }
    boolean stale;
    synchronized (this) {
      plannedDelay = d;
      stale = done;
      if (!stale) {
        signal = s;
      }
    }
    if (s != null) {
      if (stale) {
        s.cancel(false);
      } else {
        CompletableFuture<Boolean> sub = s;
        var unused = s.whenComplete((released, e) -> onSignal(sub, released));
      }
    }
  }

  /** The release signal of {@code s} completed; only {@code true} wakes. Backend thread. */
  private void onSignal(CompletableFuture<Boolean> s, Boolean released) {
    if (!Boolean.TRUE.equals(released)) {
      return; // timed out, off, closed or cancelled: the delay timer ends the wait
    }
    synchronized (this) {
      if (done || signal != s) {
        return;
      }
      if (delayTimer == null) {
        signalled = true; // the reply is not in yet: a refusal retries at once
        return;
      }
    }
    // hop to the clock's timer thread: never run an attempt on the backend's listener thread
    lock.clock.schedule(Duration.ZERO, () -> endWait(s));
  }

  /** Ends the retry wait identified by subscription {@code s}: its delay passed or it fired. */
  private void endWait(CompletableFuture<Boolean> s) {
    LockClock.Timer t;
    synchronized (this) {
      if (done || signal != s || delayTimer == null) {
        return; // another path already ended this wait
      }
      t = delayTimer;
      delayTimer = null; // claims the wait: the other path finds it ended
    }
    t.cancel(); // no-op when this is the delay timer itself
    run();
  }

  /**
   * Handles one reply. Runs on the caller's thread (inline) or the backend's.
   *
   * @return true when the next attempt is due now
   */
  boolean onReply(Attempt a, AcquireOutcome o, Throwable rawError) {
    long now = lock.clock.nanoTime();
    Throwable error = rawError == null ? null : ComposedLock.unwrap(rawError);
    boolean abandoned;
    synchronized (this) {
      if (current == a) {
        current = null;
      }
      abandoned = a.abandoned;
    }
    if (abandoned) {
      a.afterAbandon(o, error);
      return false;
    }
    if (error != null) {
      LockFailureKind kind = kindOf(error);
      finishFailed(now, kind, error);
      if (kind != LockFailureKind.UNAVAILABLE) {
        a.releaseOrphan();
      }
      return false;
    }
    if (o.granted()) {
      if (now - a.requestNanos >= leaseNanos) {
        finishFailed(
            now,
            LockFailureKind.TIMEOUT,
            LockBackendException.timeout(
                "the grant arrived after its lease was spent (" + lease + ")", null));
        a.releaseOrphan();
        return false;
      }
      deliverHandle(a, o.fencingToken(), now);
      return false;
    }
    long delay;
    synchronized (this) {
      if (done) {
        return false;
      }
      int n = attempts;
      if (n > retry.retryLimit() || maxWaitNanos == 0) {
        delay = -1;
      } else {
        delay = plannedDelay >= 0 ? plannedDelay : retry.delayNanos(n);
        if (maxWaitNanos > 0 && delay >= maxWaitNanos - (now - startNanos)) {
          delay = -1; // the wait would reach maxWait: stop now instead of sleeping
        }
      }
      plannedDelay = -1;
      if (delay > 0) {
        if (signalled) {
          delay = 0; // released while the attempt was in flight: retry now
        } else {
          ensureResult();
          CompletableFuture<Boolean> s = signal;
          delayTimer =
              lock.clock.schedule(Duration.ofNanos(delay), s == null ? this : () -> endWait(s));
        }
      }
    }
    if (delay < 0) {
      finishNotAcquired(now);
      return false;
    }
    if (delay > 0 && lock.isClosed()) {
      closedByLock();
    }
    return delay == 0;
  }

  private static LockFailureKind kindOf(Throwable e) {
    if (e instanceof LockBackendException b) {
      return b.kind();
    }
    if (e instanceof CancellationException) {
      return LockFailureKind.TIMEOUT; // cancelled at the lease end or on close: may be held
    }
    return LockFailureKind.OTHER;
  }

  private void ensureResult() {
    if (result == null) {
      CompletableFuture<Object> r = new CompletableFuture<>();
      result = r;
      lock.track(this);
      // a caller that cancels or completes the future itself abandons the acquisition
      var unused =
          r.whenComplete(
              (v, e) -> {
                if (e != null) {
                  abandon(e, false);
                }
              });
    }
  }

  private void onMaxWait() {
    finishNotAcquired(lock.clock.nanoTime());
  }

  private void cancelTimersLocked() {
    if (delayTimer != null) {
      delayTimer.cancel();
      delayTimer = null;
    }
    if (maxWaitTimer != null) {
      maxWaitTimer.cancel();
      maxWaitTimer = null;
    }
  }

  /** Takes the release subscription; the caller cancels it outside the monitor. */
  private CompletableFuture<Boolean> takeSignalLocked() {
    CompletableFuture<Boolean> s = signal;
    signal = null;
    return s;
  }

  private static void cancelSignal(CompletableFuture<Boolean> s) {
    if (s != null) {
      s.cancel(false); // frees the backend's wait; runs its dependents, so never under our monitor
    }
  }

  /** Marks the acquisition done; returns the outstanding attempt (now abandoned), if any. */
  private Attempt markDoneLocked() {
    done = true;
    cancelTimersLocked();
    Attempt out = current;
    if (out != null) {
      out.abandoned = true;
      current = null;
    }
    return out;
  }

  private void finishNotAcquired(long now) {
    int n;
    CompletableFuture<Boolean> s;
    synchronized (this) {
      if (done) {
        return;
      }
      markDoneLocked(); // an outstanding reply is abandoned, not cancelled
      n = attempts;
      s = takeSignalLocked();
    }
    cancelSignal(s);
    long waited = now - startNanos;
    lock.listener.acquireFinished(
        context, lock.namespace, key, AcquireResult.NOT_ACQUIRED, waited, n, null);
    switch (mode) {
      case ACQUIRE -> deliver(null, LockNotAcquiredException.of(key, n, Duration.ofNanos(waited)));
      case TRY_ASYNC -> deliver(Optional.empty(), null);
      default -> deliver(null, null);
    }
  }

  private void finishFailed(long now, LockFailureKind kind, Throwable cause) {
    int n;
    CompletableFuture<Boolean> s;
    synchronized (this) {
      if (done) {
        return;
      }
      markDoneLocked();
      n = attempts;
      s = takeSignalLocked();
    }
    cancelSignal(s);
    long waited = now - startNanos;
    LockProviderUnavailableException e =
        LockProviderUnavailableException.of(key, n, Duration.ofNanos(waited), kind, cause);
    lock.listener.acquireFinished(
        context, lock.namespace, key, AcquireResult.UNAVAILABLE, waited, n, e);
    deliver(null, e);
  }

  private void deliverHandle(Attempt a, long fencingToken, long now) {
    boolean late;
    int n;
    CompletableFuture<Boolean> s = null;
    synchronized (this) {
      late = done;
      if (!late) {
        done = true;
        cancelTimersLocked();
        s = takeSignalLocked();
      }
      n = attempts;
    }
    cancelSignal(s);
    if (late) {
      a.releaseOrphan(); // the caller gave up between the reply and now
      return;
    }
    LeaseHandle h = new LeaseHandle(this, a.requestNanos, fencingToken, now, n);
    lock.listener.acquireFinished(
        context, lock.namespace, key, AcquireResult.ACQUIRED, now - startNanos, n, null);
    h.start(now);
    if (!deliver(mode == TRY_ASYNC ? Optional.of(h) : h, null)) {
      var unused =
          h.closeAsync(); // the caller abandoned at the very same moment: release it like any
      // handle
    }
  }

  /** Hands the outcome to the caller; false when the caller is gone. */
  private boolean deliver(Object value, RuntimeException error) {
    CompletableFuture<Object> r;
    synchronized (this) {
      r = result;
      if (r == null) {
        inlineValue = value;
        inlineError = error;
        return true;
      }
    }
    lock.untrack(this);
    return error == null ? r.complete(value) : r.completeExceptionally(error);
  }

  /** The caller stopped waiting (or the lock closed): nothing is delivered any more. */
  void abandon(Throwable why, boolean cancelBackendCall) {
    Attempt out;
    int n;
    CompletableFuture<Boolean> s;
    synchronized (this) {
      if (done) {
        return;
      }
      out = markDoneLocked();
      n = attempts;
      s = takeSignalLocked();
    }
    cancelSignal(s);
    lock.untrack(this);
    lock.listener.acquireFinished(
        context,
        lock.namespace,
        key,
        AcquireResult.ABANDONED,
        lock.clock.nanoTime() - startNanos,
        n,
        why);
    if (cancelBackendCall && out != null) {
      out.cancelCall();
    }
  }

  /** The lock was closed while this acquisition was in flight. */
  void closedByLock() {
    IllegalStateException e = lock.closedException();
    abandon(e, true);
    CompletableFuture<Object> r;
    synchronized (this) {
      r = result;
    }
    if (r != null) {
      r.completeExceptionally(e);
    }
  }

  /** The future for the async forms; completed already when everything ran inline. */
  CompletableFuture<Object> asFuture() {
    synchronized (this) {
      if (result != null) {
        return result;
      }
    }
    return inlineError != null
        ? CompletableFuture.failedFuture(inlineError)
        : CompletableFuture.completedFuture(inlineValue);
  }

  /** Waits for the outcome on the caller's thread; see {@link DistributedLock} on interrupts. */
  Object await() {
    CompletableFuture<Object> r;
    synchronized (this) {
      r = result;
    }
    if (r == null) {
      if (inlineError != null) {
        throw inlineError;
      }
      return inlineValue;
    }
    try {
      return r.get();
    } catch (InterruptedException e) {
      LockInterruptedException ie = LockInterruptedException.acquiring(key);
      Thread.currentThread().interrupt();
      if (r.completeExceptionally(ie)) {
        throw ie;
      }
      return joinUnwrapped(r); // the outcome won the race: hand it out, the flag stays set
    } catch (ExecutionException e) {
      throw rethrow(e.getCause());
    }
  }

  private static Object joinUnwrapped(CompletableFuture<Object> r) {
    try {
      return r.join();
    } catch (CompletionException e) {
      throw rethrow(e.getCause());
    }
  }

  private static RuntimeException rethrow(Throwable t) {
    if (t instanceof RuntimeException re) {
      return re;
    }
    if (t instanceof Error err) {
      throw err;
    }
    return new CompletionException(t);
  }
}
