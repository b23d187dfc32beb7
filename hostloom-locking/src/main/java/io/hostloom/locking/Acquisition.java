package io.hostloom.locking;

import io.hostloom.locking.LockEventListener.AcquireResult;
import io.hostloom.locking.LockEventListener.OrphanResult;
import io.hostloom.locking.spi.AcquireOutcome;
import io.hostloom.locking.spi.LockBackendException;
import io.hostloom.locking.spi.ReleaseOutcome;
import io.hostloom.locking.spi.ReleaseSignal;
import io.hostloom.locking.spi.support.CallerWaits;
import io.hostloom.locking.time.LockClock;
import java.time.Duration;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.function.BiConsumer;

/**
 * One acquisition call: a loop of attempts (backend acquire calls) on one owner token, driven
 * inline on the caller's thread while replies are synchronous, and by backend callbacks and clock
 * timers otherwise. The {@link #result} future is created only at the first hand-off to another
 * thread; completing it is the single point where "the caller got the handle" is decided, so a
 * caller that gives up at the same moment can never leak a grant.
 *
 * <p><b>Retry steps.</b> A refused attempt that the policy lets retry starts a <em>step</em>: one
 * delay timer ({@link #run}) for the policy's delay. When it fires, the next <em>scheduled</em>
 * attempt is sent; it advances the policy index {@link #counted}. Without a release signal this is
 * the whole loop (statements 20–23).
 *
 * <p><b>Wake on release.</b> With a {@link ReleaseSignal}, the first attempt is sent without a
 * subscription, so an uncontended acquisition never subscribes. When it is refused and a step
 * starts, a woken attempt subscribes for the step and asks again at once (a release between the
 * refusal and the subscription would otherwise be missed): a contended acquisition costs one
 * attempt more. Every later attempt that may be followed by a wait subscribes before it is sent. A
 * signal during a step sends a <em>woken</em> attempt at once and leaves the step's timer running.
 * A woken attempt refused while its step still runs is free: the index does not move and the step
 * keeps its remaining time, so the scheduled attempts keep exactly the polling timeline and a herd
 * of woken losers cannot exhaust the retry limit. A woken attempt refused after its step's timer
 * fired stands in for that step's scheduled attempt (it advances the index), so no extra attempt is
 * sent behind it and the timeline is never longer than polling. {@link #attempts} counts every
 * attempt sent.
 *
 * <p><b>Attempts.</b> At most one attempt is out at a time (a new one is sent only once the
 * previous reply was handled, and none once done), so the attempt's state lives here, keyed by its
 * number: an attempt answered inline allocates nothing. One whose reply is awaited gets a {@link
 * Reply} (its reply callback and lease-end timer) that carries its number and its own call, so a
 * reply or a late timer of an earlier attempt is never taken for the attempt out. While a lease
 * timer is armed its call is outstanding, so a late timer can only cancel a call already answered.
 */
// Implements Runnable as the retry step's timer task, so a step does not allocate a lambda.
final class Acquisition<R> implements Runnable {
  /** What {@link #onReply} decided to send now. */
  enum Next {
    /** Nothing (finished, or a step runs). */
    NONE,
    /** The next scheduled attempt (an immediate retry). */
    SCHEDULED,
    /** A woken attempt: the key was released while the attempt was in flight. */
    WOKEN
  }

  final LockRuntime rt; // read by the handle this grants
  private final AcquireMode<R> mode;
  final String key;
  final String backendKey;
  final String owner;
  final Duration lease;
  final long leaseNanos;
  final HoldPolicy hold; // read by the handle this grants
  final long startNanos;
  private final long maxWaitNanos; // -1: none
  private final LockRetryPolicy retry;
  private final Object context;

  // guarded by this
  private int attempts; // every attempt sent, woken ones included
  private int counted; // the policy's attempt index k: scheduled attempts and woken stand-ins
  private boolean done;
  private int outId; // the number of the attempt out; 0: none. Kept when abandoned (done)
  private boolean outWoken; // the attempt out was sent on a release signal during a step
  private long requestNanos; // when the attempt out (or the granted one) was sent
  private Reply wait; // the attempt out, when its reply is awaited asynchronously
  private boolean orphanReleaseSent; // the one owner-checked release nobody waits for
  private LockClock.Timer delayTimer; // the running step's timer; null: no step runs
  private long stepEndNanos; // when the running step's timer is due
  private LockClock.Timer maxWaitTimer;
  private CompletableFuture<R> result;
  private CompletableFuture<Boolean> signal; // subscription made before the current attempt
  private boolean signalled; // the signal fired while an attempt was in flight: wake at its refusal
  private long plannedDelay = -1; // the delay drawn for the current attempt when subscribing

  // the outcome when everything completed inline on the caller's thread (result == null)
  // (one field for both: R, the handle or an Optional of it, is never a RuntimeException)
  private Object inline; // an R, or the RuntimeException to throw

  Acquisition(
      LockRuntime rt,
      AcquireMode<R> mode,
      String key,
      String backendKey,
      String owner,
      LockOptions options,
      Object parentContext) {
    this.rt = rt;
    this.mode = mode;
    this.key = key;
    this.backendKey = backendKey;
    this.owner = owner;
    this.leaseNanos = rt.leaseNanos(options);
    this.lease = rt.leaseDuration(options, leaseNanos);
    Duration mw = options.maxWaitOrNull();
    this.maxWaitNanos = mw == null ? -1 : LockRuntime.nanos(mw);
    LockRetryPolicy r = options.retryOrNull();
    this.retry = r != null ? r : rt.options().retry();
    this.hold = rt.holdPolicy(options);
    this.startNanos = rt.clock().nanoTime();
    this.context = rt.events().acquireStarted(key, parentContext);
  }

  /** Runs the first attempts on the caller's thread. */
  void start() {
    send(false, null);
  }

  /**
   * {@link #start} for a caller that then blocks in {@link #await}: the backend may answer the
   * first attempts on this thread ({@link CallerWaits}) within what is left of {@code maxWait}.
   */
  void startWaiting() {
    long previous = CallerWaits.begin(maxWaitNanos > 0 ? maxWaitNanos : CallerWaits.UNBOUNDED);
    try {
      send(false, null);
    } finally {
      CallerWaits.end(previous);
    }
  }

  /** The step's delay timer: the retry wait is over. */
  @Override
  public void run() {
    synchronized (this) {
      if (done || delayTimer == null) {
        return;
      }
      delayTimer = null; // the step is over: a signal no longer sends a woken attempt
      if (outId != 0) {
        return; // a woken attempt is out: its refusal stands in for this step's attempt
      }
    }
    send(false, null);
  }

  /** Continues after a reply, with what {@link #onReply} decided. */
  void proceed(Next next) {
    if (next != Next.NONE) {
      send(next == Next.WOKEN, null);
    }
  }

  /**
   * Sends attempts while replies are synchronous and retries immediate.
   *
   * @param woken a woken attempt: sent only while a step runs and no attempt is out
   * @param via for a woken attempt started by a signal hop: that subscription must still be current
   */
  private void send(boolean woken, CompletableFuture<Boolean> via) {
    while (true) {
      long now = rt.clock().nanoTime();
      if (maxWaitNanos > 0 && now - startNanos >= maxWaitNanos) {
        finishNotAcquired(now);
        return;
      }
      CompletableFuture<Boolean> endedWait;
      int k;
      int id;
      long stepLeft;
      synchronized (this) {
        if (done) {
          return;
        }
        if (woken) {
          if (delayTimer == null || outId != 0 || (via != null && signal != via)) {
            return; // the step ended or another path already sent an attempt
          }
          stepLeft = stepEndNanos - now;
        } else {
          delayTimer = null;
          stepLeft = 0;
          ++counted;
        }
        k = counted;
        id = ++attempts;
        outId = id;
        outWoken = woken;
        requestNanos = now;
        wait = null;
        endedWait = signal;
        signal = null;
        signalled = false;
        plannedDelay = -1;
      }
      if (endedWait != null) {
        endSignal(endedWait); // replaced by the subscription for this attempt
      }
      if (rt.releaseSignal() != null) {
        subscribe(rt.releaseSignal(), woken, k, stepLeft, now);
      }
      CompletableFuture<AcquireOutcome> f = call();
      if (f.isDone()) {
        AcquireOutcome o = null;
        Throwable error = null;
        try {
          o = f.join();
        } catch (CompletionException | CancellationException e) {
          error = e;
        }
        Next next = onReply(id, o, error);
        if (next == Next.NONE) {
          return;
        }
        woken = next == Next.WOKEN;
        via = null;
        continue;
      }
      Reply r = new Reply(this, id, f);
      synchronized (this) {
        ensureResult();
        if (outId == id && !done) {
          wait = r;
        }
        if (maxWaitNanos > 0 && maxWaitTimer == null) {
          maxWaitTimer =
              rt.clock()
                  .schedule(Duration.ofNanos(startNanos + maxWaitNanos - now), this::onMaxWait);
        }
      }
      r.await(now + leaseNanos);
      if (rt.tracker().isClosed()) {
        closedByLock();
      }
      return;
    }
  }

  /**
   * Subscribes to the key's release signal before an attempt is sent, when a wait may follow it
   * (never before the first attempt). For scheduled attempt {@code k} the step's delay is drawn
   * here (as the signal's bound) and used by {@link #onReply}, so the step is the same as without a
   * signal; a woken attempt's wait is the rest of the running step ({@code stepLeft}).
   */
  private void subscribe(ReleaseSignal rs, boolean woken, int k, long stepLeft, long now) {
    long d;
    if (woken) {
      d = stepLeft;
    } else if (k == 1 || k > retry.retryLimit() || maxWaitNanos == 0) {
      // the first attempt goes out without one (uncontended acquisitions never subscribe; a
      // refused one subscribes and attempts again before its wait, see onReply), and after the
      // last one no retry follows
      return;
    } else {
      d = retry.delayNanos(k);
    }
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
      if (!woken) {
        plannedDelay = d;
      }
      stale = done;
      if (!stale) {
        signal = s;
      }
    }
    if (s != null) {
      if (stale) {
        endSignal(s);
      } else {
        CompletableFuture<Boolean> sub = s;
        var unused = s.whenComplete((released, e) -> onSignal(sub, released));
      }
    }
  }

  /** The release signal of {@code s} completed; only {@code true} wakes. Backend thread. */
  private void onSignal(CompletableFuture<Boolean> s, Boolean released) {
    if (!Boolean.TRUE.equals(released)) {
      return; // timed out, off, closed or cancelled: the step's timer ends the wait
    }
    synchronized (this) {
      if (done || signal != s) {
        return;
      }
      if (outId != 0 || delayTimer == null) {
        signalled = true; // an attempt is out: if it is refused, a woken attempt follows at once
        return;
      }
    }
    // hop to the clock's timer thread: never run an attempt on the backend's listener thread
    rt.clock().schedule(Duration.ZERO, () -> send(true, s));
  }

  /**
   * Handles one reply. Runs on the caller's thread (inline) or the backend's.
   *
   * @return what to send now
   */
  Next onReply(int id, AcquireOutcome o, Throwable rawError) {
    long now = rt.clock().nanoTime();
    Throwable error = rawError == null ? null : LockRuntime.unwrap(rawError);
    boolean refused = error == null && !o.granted();
    boolean abandoned;
    long sentAt;
    synchronized (this) {
      if (id != outId) {
        // not the attempt out: cannot happen (one attempt at a time, one reply each); never let it
        // stand for the current attempt, and never release: the grant it might report is ours
        return Next.NONE;
      }
      // outId stays id until the acquisition is done or the refusal is decided below: while it is
      // set, neither the step's timer nor a signal sends another attempt for this owner (the
      // backend would answer it as a same-owner re-acquire: a second hold with the same token,
      // whose orphan release frees this grant)
      abandoned = done;
      sentAt = requestNanos;
    }
    if (abandoned) {
      afterAbandon(o, error);
      return Next.NONE;
    }
    if (error != null) {
      LockFailureKind kind = kindOf(error);
      finishFailed(now, kind, error);
      if (kind != LockFailureKind.UNAVAILABLE) {
        releaseOrphan();
      }
      return Next.NONE;
    }
    if (!refused) {
      if (now - sentAt >= leaseNanos) {
        finishFailed(
            now,
            LockFailureKind.TIMEOUT,
            LockBackendException.timeout(
                "the grant arrived after its lease was spent (" + lease + ")", null));
        releaseOrphan();
        return Next.NONE;
      }
      deliverHandle(id, o.fencingToken(), sentAt, now);
      return Next.NONE;
    }
    long delay;
    Next next = Next.NONE;
    synchronized (this) {
      if (done) {
        return Next.NONE;
      }
      boolean wasWoken = outWoken;
      outId = 0;
      wait = null;
      if (delayTimer != null) {
        // a woken attempt lost while its step runs: free; the step keeps its remaining time
        return signalled ? Next.WOKEN : Next.NONE;
      }
      if (wasWoken) {
        counted++; // its step ended while it was out: it stands in for the step's attempt
      }
      int k = counted;
      if (k > retry.retryLimit() || maxWaitNanos == 0) {
        delay = -1;
      } else {
        delay = plannedDelay >= 0 ? plannedDelay : retry.delayNanos(k);
        if (maxWaitNanos > 0 && delay >= maxWaitNanos - (now - startNanos)) {
          delay = -1; // the wait would reach maxWait: stop now instead of sleeping
        }
      }
      plannedDelay = -1;
      if (delay == 0) {
        next = Next.SCHEDULED;
      } else if (delay > 0) {
        ensureResult();
        stepEndNanos = now + delay;
        delayTimer = rt.clock().scheduleNanos(delay, this);
        if (signalled) {
          next = Next.WOKEN; // released while the attempt was in flight: try again now
        } else if (k == 1 && !wasWoken && rt.releaseSignal() != null) {
          // the first attempt was sent unsubscribed: the woken attempt subscribes for the step,
          // then asks again, so a release between that refusal and the subscription is not missed
          next = Next.WOKEN;
        }
      }
    }
    if (delay < 0) {
      finishNotAcquired(now);
      return Next.NONE;
    }
    if (delay > 0 && rt.tracker().isClosed()) {
      closedByLock();
      return Next.NONE;
    }
    return next;
  }

  /**
   * One backend acquire call for the attempt out; a throwing or null-returning backend fails it.
   */
  private CompletableFuture<AcquireOutcome> call() {
    try {
      CompletableFuture<AcquireOutcome> f = rt.backend().acquire(backendKey, owner, "", lease);
      return f != null
          ? f
          : CompletableFuture.failedFuture(new NullPointerException("backend returned null"));
    } catch (RuntimeException e) {
      return CompletableFuture.failedFuture(e);
    }
  }

  /**
   * The attempt whose reply is awaited: the reply callback and the lease-end timer, which cancels
   * its own call when request time + lease is reached (the call may still have been applied).
   */
  // Implements BiConsumer and Runnable so that waiting for a reply allocates no lambdas.
  private static final class Reply implements BiConsumer<AcquireOutcome, Throwable>, Runnable {
    final Acquisition<?> acq;
    final int id;
    final CompletableFuture<AcquireOutcome> call;
    private volatile LockClock.Timer leaseTimer;

    Reply(Acquisition<?> acq, int id, CompletableFuture<AcquireOutcome> call) {
      this.acq = acq;
      this.id = id;
      this.call = call;
    }

    /** Arms the lease-end timer for {@code leaseEndNanos}, then listens for the reply. */
    void await(long leaseEndNanos) {
      LockClock clock = acq.rt.clock();
      leaseTimer = clock.scheduleNanos(Math.max(0, leaseEndNanos - clock.nanoTime()), this);
      var unused = call.whenComplete(this);
    }

    /** The lease-end timer: the lease is spent. Only this attempt's call, never a later one. */
    @Override
    public void run() {
      call.cancel(false);
    }

    @Override
    public void accept(AcquireOutcome outcome, Throwable error) {
      LockClock.Timer t = leaseTimer;
      if (t != null) {
        t.cancel();
      }
      acq.proceed(acq.onReply(id, outcome, error));
    }
  }

  /** A reply nobody waits for: release what may be held. */
  private void afterAbandon(AcquireOutcome outcome, Throwable error) {
    if (error == null) {
      if (outcome.granted()) {
        releaseOrphan();
      }
    } else if (!(error instanceof LockBackendException b)
        || b.kind() != LockFailureKind.UNAVAILABLE) {
      releaseOrphan();
    }
  }

  /**
   * One best-effort owner-checked release that nobody waits for, at most once per acquisition: only
   * the last attempt can leave a grant behind (none is sent once done).
   */
  private void releaseOrphan() {
    synchronized (this) {
      if (orphanReleaseSent) {
        return;
      }
      orphanReleaseSent = true;
    }
    CompletableFuture<ReleaseOutcome> f;
    try {
      f = rt.backend().release(backendKey, owner);
    } catch (RuntimeException e) {
      f = CompletableFuture.failedFuture(e);
    }
    if (f.isDone()) {
      orphanReleased(f);
      return;
    }
    CompletableFuture<ReleaseOutcome> rf = f;
    long timeout = Math.min(leaseNanos, LockRuntime.ORPHAN_RELEASE_TIMEOUT_NANOS);
    LockClock.Timer timer = rt.clock().schedule(Duration.ofNanos(timeout), () -> rf.cancel(false));
    var unused =
        f.whenComplete(
            (r, e) -> {
              timer.cancel();
              orphanReleased(rf);
            });
  }

  private void orphanReleased(CompletableFuture<ReleaseOutcome> f) {
    OrphanResult orphan;
    Throwable error = null;
    try {
      orphan = f.join().released() ? OrphanResult.RELEASED : OrphanResult.ABSENT;
    } catch (RuntimeException e) {
      orphan = OrphanResult.FAILED;
      error = LockRuntime.unwrap(e);
    }
    if (rt.log().isDebugEnabled()) {
      String outcome = orphan.name().toLowerCase(java.util.Locale.ROOT);
      if (error == null) {
        rt.log()
            .debug(
                "LockOrphanRelease [3108]: abandoned acquisition of lock '{}' released: {}",
                key,
                outcome);
      } else {
        rt.log()
            .debug(
                "LockOrphanRelease [3108]: abandoned acquisition of lock '{}' released: {}",
                key,
                outcome,
                error);
      }
    }
    rt.events().orphanReleased(key, orphan);
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
      CompletableFuture<R> r = new CompletableFuture<>();
      result = r;
      rt.tracker().track(this);
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
    finishNotAcquired(rt.clock().nanoTime());
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

  private static void endSignal(CompletableFuture<Boolean> s) {
    if (s != null) {
      // frees the backend's wait (the SPI frees on any completion); complete, not cancel: cancel
      // builds a CancellationException with a stack trace on the uncontended path. Runs the
      // future's dependents, so never under our monitor.
      s.complete(false);
    }
  }

  /**
   * Marks the acquisition done; the attempt out, if any, is then abandoned (its reply, when it
   * comes, goes to {@link #afterAbandon}). Returns its Reply when its reply is awaited.
   */
  private Reply markDoneLocked() {
    done = true;
    cancelTimersLocked();
    Reply out = wait;
    wait = null;
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
    endSignal(s);
    long waited = now - startNanos;
    rt.events().acquireFinished(context, key, AcquireResult.NOT_ACQUIRED, waited, n, null);
    if (mode.notAcquiredThrows()) {
      deliver(null, LockNotAcquiredException.of(key, n, Duration.ofNanos(waited)));
    } else {
      deliver(mode.notAcquired(), null);
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
    endSignal(s);
    long waited = now - startNanos;
    LockBackendUnavailableException e =
        LockBackendUnavailableException.of(key, n, Duration.ofNanos(waited), kind, cause);
    rt.events().acquireFinished(context, key, AcquireResult.UNAVAILABLE, waited, n, e);
    deliver(null, e);
  }

  private void deliverHandle(int id, long fencingToken, long sentAt, long now) {
    boolean late;
    int n;
    CompletableFuture<Boolean> s = null;
    synchronized (this) {
      late = done;
      if (!late) {
        done = true;
        if (outId == id) {
          outId = 0; // granted, not abandoned
          wait = null;
        }
        cancelTimersLocked();
        s = takeSignalLocked();
      }
      n = attempts;
    }
    endSignal(s);
    if (late) {
      releaseOrphan(); // the caller gave up between the reply and now
      return;
    }
    LeaseHandle h = new LeaseHandle(this, fencingToken, sentAt, now);
    rt.events().acquireFinished(context, key, AcquireResult.ACQUIRED, now - startNanos, n, null);
    h.start(now);
    if (!deliver(mode.granted(h), null)) {
      // the caller abandoned at the very same moment: release it like any handle
      var unused = h.closeAsync();
    }
  }

  /**
   * When the granted attempt was sent: its handle's lease start. Written only while attempts are
   * sent, before the grant, so it never changes once the handle exists.
   */
  synchronized long grantedRequestNanos() {
    return requestNanos;
  }

  /** Every attempt sent so far (final once done). */
  synchronized int attempts() {
    return attempts;
  }

  /** Hands the outcome to the caller; false when the caller is gone. */
  private boolean deliver(R value, RuntimeException error) {
    CompletableFuture<R> r;
    synchronized (this) {
      r = result;
      if (r == null) {
        inline = error != null ? error : value;
        return true;
      }
    }
    rt.tracker().untrack(this);
    return error == null ? r.complete(value) : r.completeExceptionally(error);
  }

  /** The caller stopped waiting (or the lock closed): nothing is delivered any more. */
  void abandon(Throwable why, boolean cancelBackendCall) {
    Reply out;
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
    endSignal(s);
    rt.tracker().untrack(this);
    rt.events()
        .acquireFinished(
            context, key, AcquireResult.ABANDONED, rt.clock().nanoTime() - startNanos, n, why);
    if (cancelBackendCall && out != null) {
      out.call.cancel(false);
    }
  }

  /** The lock was closed while this acquisition was in flight. */
  void closedByLock() {
    IllegalStateException e = rt.tracker().closedException();
    abandon(e, true);
    CompletableFuture<R> r;
    synchronized (this) {
      r = result;
    }
    if (r != null) {
      r.completeExceptionally(e);
    }
  }

  /** The future for the async forms; completed already when everything ran inline. */
  CompletableFuture<R> asFuture() {
    synchronized (this) {
      if (result != null) {
        return result;
      }
    }
    return inline instanceof RuntimeException e
        ? CompletableFuture.failedFuture(e)
        : CompletableFuture.completedFuture(inlineValue());
  }

  @SuppressWarnings("unchecked") // deliver stores only an R or a RuntimeException
  private R inlineValue() {
    return (R) inline;
  }

  /** Waits for the outcome on the caller's thread; see {@link DistributedLock} on interrupts. */
  R await() {
    CompletableFuture<R> r;
    synchronized (this) {
      r = result;
    }
    if (r == null) {
      if (inline instanceof RuntimeException e) {
        throw e;
      }
      return inlineValue();
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

  private static <R> R joinUnwrapped(CompletableFuture<R> r) {
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
