package io.hostloom.locking;

import io.hostloom.locking.LockEventListener.ExtendResult;
import io.hostloom.locking.spi.ExtendOutcome;
import io.hostloom.locking.spi.LockBackendException;
import io.hostloom.locking.spi.ReleaseOutcome;
import io.hostloom.locking.spi.support.CallerWaits;
import io.hostloom.locking.time.LockClock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;

/**
 * A real handle: states HELD → LOST, HELD → CLOSED, LOST → CLOSED, each once. One clock timer at a
 * time serves the lease end, the 80 % warning and the heartbeat, whichever is due first. Extensions
 * (manual and automatic) are queued and sent one at a time.
 */
// Implements Runnable as its own timer task, so re-arming the timer allocates no lambda.
final class LeaseHandle implements LockHandle, Runnable {
  private enum State {
    HELD,
    LOST,
    CLOSED
  }

  // the granting acquisition: the grant's fixed facts (runtime, key, backend key, owner, hold
  // policy, request time, start, attempts) are read from it instead of copied into every handle
  private final Acquisition<?> acq;
  private final long fencingToken;

  // guarded by this
  private State state = State.HELD;
  private boolean active = true;
  private long leaseNanos;
  private long leaseEndNanos;
  private long warnAtNanos;
  private boolean warned;
  private long heartbeatAtNanos = -1;
  private boolean heartbeatStopped;
  private LockClock.Timer timer;
  private long timerDueNanos;
  private Extras extras; // made on first use: most handles are never lost, observed or extended
  private boolean extending;
  private long closedAtNanos = -1;
  // when closing stops keeping the lease: the grant's minimum hold, or what holdAtLeast set
  private long minimumHoldEndNanos;

  LeaseHandle(Acquisition<?> acq, long fencingToken, long requestNanos, long nowNanos) {
    this.acq = acq;
    this.fencingToken = fencingToken;
    this.minimumHoldEndNanos = requestNanos + acq.hold.minimumHoldNanos();
    this.leaseNanos = acq.leaseNanos;
    this.leaseEndNanos = requestNanos + leaseNanos;
    long remaining = leaseEndNanos - nowNanos;
    this.warnAtNanos = nowNanos + remaining - remaining / 5;
    if (acq.hold.autoExtend()) {
      heartbeatAtNanos = nowNanos + heartbeatDelay(remaining);
    }
  }

  /** What only some handles need; guarded by the handle. */
  private static final class Extras {
    LossReason lossReason;
    CompletableFuture<LossReason> lostSignal;
    Runnable lossHook;
    ArrayDeque<ExtendOp> queue;
  }

  private Extras extrasLocked() {
    Extras x = extras;
    if (x == null) {
      x = new Extras();
      extras = x;
    }
    return x;
  }

  /** The cadence's delay: half the lease left, or the set cadence when that is sooner. */
  private long heartbeatDelay(long remaining) {
    long half = remaining / 2;
    long every = acq.hold.extendEveryNanos();
    return every >= 0 && every < half ? every : half;
  }

  void start(long now) {
    synchronized (this) {
      armLocked(now);
    }
  }

  /** Schedules the one timer for the earliest pending deadline. */
  private void armLocked(long now) {
    if (state == State.CLOSED) {
      return;
    }
    long next = Long.MAX_VALUE;
    boolean any = false;
    if (state == State.HELD) {
      next = leaseEndNanos;
      any = true;
      if (heartbeatAtNanos >= 0 && heartbeatAtNanos - next < 0) {
        next = heartbeatAtNanos;
      }
    }
    if (!warned && (!any || warnAtNanos - next < 0)) {
      next = warnAtNanos;
      any = true;
    }
    if (!any) {
      cancelTimerLocked();
      return;
    }
    if (timer != null) {
      if (timerDueNanos == next) {
        return;
      }
      timer.cancel();
    }
    timerDueNanos = next;
    timer = acq.rt.clock().scheduleNanos(Math.max(0, next - now), this);
  }

  private void cancelTimerLocked() {
    if (timer != null) {
      timer.cancel();
      timer = null;
    }
  }

  /** The timer: processes whatever is due, then re-arms. */
  @Override
  public void run() {
    boolean expire = false;
    boolean warn = false;
    boolean beat = false;
    synchronized (this) {
      timer = null;
      if (state == State.CLOSED) {
        return;
      }
      long now = acq.rt.clock().nanoTime();
      if (state == State.HELD && now - leaseEndNanos >= 0) {
        expire = true;
      }
      if (!warned && now - warnAtNanos >= 0) {
        warned = true;
        warn = true;
      }
      if (!expire && state == State.HELD && heartbeatAtNanos >= 0 && now - heartbeatAtNanos >= 0) {
        heartbeatAtNanos = -1;
        beat = true;
      }
      if (!expire) {
        armLocked(now);
      }
    }
    if (warn) {
      acq.rt
          .log()
          .warn(
              "LockHoldThreshold [3103]: lock '{}' has used 80% of its lease without being released",
              acq.key);
    }
    if (expire) {
      lose(LossReason.EXPIRED);
    }
    if (beat) {
      heartbeat();
    }
  }

  // ---------------------------------------------------------------- loss

  /** HELD → LOST, at most once. */
  private void lose(LossReason reason) {
    Runnable hook;
    CompletableFuture<LossReason> signal;
    synchronized (this) {
      if (state != State.HELD) {
        return;
      }
      state = State.LOST;
      Extras x = extrasLocked();
      x.lossReason = reason;
      active = false;
      heartbeatAtNanos = -1;
      hook = x.lossHook;
      signal = x.lostSignal;
      armLocked(acq.rt.clock().nanoTime()); // keeps only the pending 80 % warning
    }
    reportLoss(reason, hook, signal);
  }

  private void reportLoss(LossReason reason, Runnable hook, CompletableFuture<LossReason> signal) {
    acq.rt
        .log()
        .warn("LockLeaseLost [3102]: lease of lock '{}' lost ({})", acq.key, reason.tagValue());
    acq.rt.events().leaseLost(acq.key, reason);
    if (signal != null) {
      signal.complete(reason);
    }
    if (hook != null) {
      try {
        hook.run();
      } catch (RuntimeException e) {
        acq.rt
            .log()
            .warn(
                "LockCancellationCallbackFailed [3107]: a loss callback of lock '{}' failed",
                acq.key,
                e);
      }
    }
  }

  /** Registers the action hook of {@code executeWithLock}; runs it now when already lost. */
  void onLoss(Runnable hook) {
    boolean lostAlready;
    synchronized (this) {
      Extras x = extrasLocked();
      x.lossHook = hook;
      lostAlready = x.lossReason != null;
    }
    if (lostAlready) {
      hook.run();
    }
  }

  /** Refuses to start an action on a lease that ran out between the grant and now. */
  void checkStillHeld() {
    if (!isHeld()) {
      long waited = acq.rt.clock().nanoTime() - acq.startNanos;
      throw LockBackendUnavailableException.of(
          acq.key,
          acq.attempts(),
          Duration.ofNanos(waited),
          LockFailureKind.TIMEOUT,
          LockBackendException.timeout("the lease ran out before the action could start", null));
    }
  }

  // ---------------------------------------------------------------- LockHandle

  @Override
  public String key() {
    return acq.key;
  }

  @Override
  public boolean isHeld() {
    synchronized (this) {
      if (state != State.HELD) {
        return false;
      }
      if (acq.rt.clock().nanoTime() - leaseEndNanos < 0) {
        return true;
      }
    }
    lose(LossReason.EXPIRED); // the timer may not have fired yet
    return false;
  }

  @Override
  public Instant leaseEnd() {
    long left;
    synchronized (this) {
      left = leaseEndNanos - acq.rt.clock().nanoTime();
    }
    return acq.rt.clock().instant().plusNanos(left);
  }

  @Override
  public CompletableFuture<LossReason> lost() {
    synchronized (this) {
      Extras x = extrasLocked();
      if (x.lostSignal == null) {
        x.lostSignal = new CompletableFuture<>();
        if (x.lossReason != null) {
          x.lostSignal.complete(x.lossReason);
        }
      }
      return x.lostSignal.copy();
    }
  }

  @Override
  public boolean isCoordinated() {
    return true;
  }

  @Override
  public long fencingToken() {
    return fencingToken;
  }

  /** Time from the acquisition request to the close; -1 while open. */
  long holdNanos() {
    synchronized (this) {
      return closedAtNanos < 0 ? -1 : closedAtNanos - acq.grantedRequestNanos();
    }
  }

  @Override
  public String toString() {
    return "LockHandle[key="
        + acq.key
        + ", fencingToken="
        + fencingToken
        + ", held="
        + isHeld()
        + "]";
  }

  // ---------------------------------------------------------------- extension

  private static final class ExtendOp {
    final Duration lease;
    final long leaseNanos;
    final boolean automatic;
    final CompletableFuture<Boolean> result = new CompletableFuture<>();
    long requestNanos;

    ExtendOp(Duration lease, long leaseNanos, boolean automatic) {
      this.lease = lease;
      this.leaseNanos = leaseNanos;
      this.automatic = automatic;
    }
  }

  @Override
  public void holdAtLeast(Duration minimumHold) {
    long nanos = LockRuntime.nanos(LockOptions.checkMinimumHold(minimumHold));
    long now = acq.rt.clock().nanoTime();
    synchronized (this) {
      minimumHoldEndNanos = nanos > Long.MAX_VALUE - now ? Long.MAX_VALUE : now + nanos;
    }
  }

  @Override
  public boolean extend(Duration lease) {
    CompletableFuture<Boolean> f = extendAsync(lease);
    try {
      return f.get();
    } catch (InterruptedException e) {
      f.cancel(false); // a queued extension is then never sent
      Thread.currentThread().interrupt();
      throw LockInterruptedException.extending(acq.key);
    } catch (ExecutionException e) {
      return false;
    }
  }

  @Override
  public CompletableFuture<Boolean> extendAsync(Duration lease) {
    Objects.requireNonNull(lease, "lease");
    if (lease.isNegative() || lease.isZero()) {
      throw new IllegalArgumentException("lease must be positive but was " + lease);
    }
    long n = LockRuntime.nanos(lease);
    if (n > acq.rt.maxLeaseNanos()) {
      return enqueue(acq.rt.options().maxLease(), acq.rt.maxLeaseNanos(), false);
    }
    return enqueue(lease, n, false);
  }

  private CompletableFuture<Boolean> enqueue(Duration lease, long leaseNanos, boolean automatic) {
    if (!isHeld()) {
      return CompletableFuture.completedFuture(false);
    }
    ExtendOp op = new ExtendOp(lease, leaseNanos, automatic);
    synchronized (this) {
      Extras x = extrasLocked();
      if (x.queue == null) {
        x.queue = new ArrayDeque<>(2);
      }
      x.queue.add(op);
    }
    dispatch();
    return op.result;
  }

  /** Sends queued extensions one at a time. */
  private void dispatch() {
    while (true) {
      ExtendOp op;
      boolean send;
      synchronized (this) {
        if (extending || extras == null || extras.queue == null) {
          return;
        }
        op = extras.queue.poll();
        if (op == null) {
          return;
        }
        if (op.result.isDone()) {
          continue; // cancelled while queued: never sent
        }
        long now = acq.rt.clock().nanoTime();
        send = state == State.HELD && now - leaseEndNanos < 0;
        if (send) {
          extending = true;
          op.requestNanos = now;
        }
      }
      if (!send) {
        isHeld(); // reports a local expiry the timer has not seen yet
        op.result.complete(false);
        continue;
      }
      CompletableFuture<ExtendOutcome> f;
      try {
        f = acq.rt.backend().extend(acq.backendKey, acq.owner, op.lease);
      } catch (RuntimeException e) {
        f = CompletableFuture.failedFuture(e);
      }
      if (f.isDone()) {
        onExtended(op, f);
        continue;
      }
      CompletableFuture<ExtendOutcome> pending = f;
      var unused =
          f.whenComplete(
              (r, e) -> {
                onExtended(op, pending);
                dispatch();
              });
      return;
    }
  }

  private void onExtended(ExtendOp op, CompletableFuture<ExtendOutcome> f) {
    long now = acq.rt.clock().nanoTime();
    Boolean ok = null;
    Throwable error = null;
    try {
      ExtendOutcome o = f.join();
      ok = o == null ? null : o.extended();
    } catch (CompletionException | java.util.concurrent.CancellationException e) {
      error = LockRuntime.unwrap(e);
    }
    synchronized (this) {
      extending = false;
    }
    ExtendResult result;
    boolean extended = false;
    LossReason loss = null;
    if (error != null || ok == null) {
      result = ExtendResult.FAILED;
      acq.rt
          .log()
          .warn(
              "LockExtendFailed [3105]: extension of lock '{}' failed; the lease end stays {}",
              acq.key,
              leaseEnd(),
              error);
    } else if (!ok) {
      result = ExtendResult.REFUSED;
      loss = LossReason.EXTEND_REFUSED;
    } else if (now - op.requestNanos >= op.leaseNanos) {
      result = ExtendResult.TOO_LATE;
      loss = LossReason.EXTEND_TOO_LATE;
    } else {
      synchronized (this) {
        extended = state == State.HELD;
        if (extended) {
          leaseNanos = op.leaseNanos;
          leaseEndNanos = op.requestNanos + op.leaseNanos;
          long remaining = leaseEndNanos - now;
          warnAtNanos = now + remaining - remaining / 5;
          warned = false;
          if (acq.hold.autoExtend() && !heartbeatStopped) {
            heartbeatAtNanos = now + heartbeatDelay(remaining);
          }
          armLocked(now);
        }
      }
      result = extended ? ExtendResult.EXTENDED : ExtendResult.TOO_LATE;
    }
    if (op.automatic && acq.hold.listener() != null) {
      try { // before the loss it causes, so a listener reports the renewal before the loss
        acq.hold.listener().extended(this, result, Duration.ofNanos(now - op.requestNanos));
      } catch (RuntimeException e) {
        acq.rt
            .log()
            .warn(
                "LockCancellationCallbackFailed [3107]: an extension listener of lock '{}' failed",
                acq.key,
                e);
      }
    }
    if (loss != null) {
      lose(loss);
    }
    acq.rt.events().extended(acq.key, result, op.automatic);
    op.result.complete(extended);
  }

  /** An automatic extension, requesting the current lease length. */
  private void heartbeat() {
    long lease;
    boolean stop = false;
    synchronized (this) {
      if (state != State.HELD) {
        return;
      }
      long now = acq.rt.clock().nanoTime();
      long held = now - acq.grantedRequestNanos();
      lease = leaseNanos;
      if (held >= acq.hold.maxHoldNanos()) {
        stop = true;
      } else if (acq.hold.strictMaxHold() && acq.hold.maxHoldNanos() != Long.MAX_VALUE) {
        long holdEnd = acq.grantedRequestNanos() + acq.hold.maxHoldNanos();
        if (holdEnd - leaseEndNanos <= 0) {
          stop = true; // the lease already reaches max hold
        } else {
          lease = Math.min(lease, holdEnd - now);
        }
      }
      if (stop) {
        heartbeatStopped = true;
      }
    }
    if (stop) {
      acq.rt
          .log()
          .info(
              "LockAutoExtendStopped [3106]: automatic extension of lock '{}' stopped at max hold {}",
              acq.key,
              Duration.ofNanos(acq.hold.maxHoldNanos()));
      return;
    }
    CompletableFuture<Boolean> r = enqueue(Duration.ofNanos(lease), lease, true);
    var unused =
        r.whenComplete(
            (ok, e) -> {
              if (!Boolean.TRUE.equals(ok)) {
                scheduleHeartbeatRetry();
              }
            });
  }

  /** After a failed heartbeat: half the time left, at least lease/20, at most the time left. */
  private void scheduleHeartbeatRetry() {
    synchronized (this) {
      if (state != State.HELD || heartbeatStopped) {
        return; // lost (refused, too late, expired) or closed: no retry
      }
      long now = acq.rt.clock().nanoTime();
      long left = leaseEndNanos - now;
      if (left <= 0) {
        return;
      }
      long next = Math.min(Math.max(left / 2, leaseNanos / 20), left);
      heartbeatAtNanos = now + next;
      armLocked(now);
    }
  }

  // ---------------------------------------------------------------- release

  @Override
  public void close() {
    CompletableFuture<Void> pending;
    long previous = CallerWaits.begin(CallerWaits.UNBOUNDED); // we block on the release below
    try {
      pending = release();
    } finally {
      CallerWaits.end(previous);
    }
    if (pending == null) {
      return;
    }
    try {
      pending.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt(); // stop waiting; the release completes in the background
    } catch (ExecutionException e) {
      // never: the release future only completes normally
    }
  }

  @Override
  public CompletableFuture<Void> closeAsync() {
    CompletableFuture<Void> pending = release();
    return pending != null ? pending : CompletableFuture.completedFuture(null);
  }

  /** Sends the release; null when it is done already (or was done before). */
  private CompletableFuture<Void> release() {
    isHeld(); // a lease that ran out before the close is a loss, reported first
    boolean wasHeld;
    boolean wasActive;
    long now;
    ArrayDeque<ExtendOp> dropped;
    synchronized (this) {
      if (state == State.CLOSED) {
        return null;
      }
      now = acq.rt.clock().nanoTime();
      wasHeld = state == State.HELD;
      state = State.CLOSED;
      wasActive = active;
      active = false;
      heartbeatAtNanos = -1;
      closedAtNanos = now;
      cancelTimerLocked();
      dropped = extras == null ? null : extras.queue;
      if (dropped != null) {
        extras.queue = null;
      }
    }
    if (dropped != null) {
      for (ExtendOp op : dropped) {
        op.result.complete(false);
      }
    }
    long held = now - acq.grantedRequestNanos();
    long keep;
    synchronized (this) {
      keep = wasHeld ? minimumHoldEndNanos - now : 0;
    }
    CompletableFuture<ReleaseOutcome> f;
    try {
      f = keep > 0 ? keepUntilMinimumHold(Math.min(keep, acq.rt.maxLeaseNanos())) : releaseNow();
    } catch (RuntimeException e) {
      f = CompletableFuture.failedFuture(e);
    }
    if (f.isDone()) {
      onReleased(f, held, wasHeld, wasActive);
      return null;
    }
    CompletableFuture<Void> done = new CompletableFuture<>();
    CompletableFuture<ReleaseOutcome> pending = f;
    var unused =
        f.whenComplete(
            (r, e) -> {
              try {
                onReleased(pending, held, wasHeld, wasActive);
              } finally {
                done.complete(null);
              }
            });
    return done;
  }

  private CompletableFuture<ReleaseOutcome> releaseNow() {
    return acq.rt.backend().release(acq.backendKey, acq.owner);
  }

  /**
   * The close before the minimum hold: the lease is set to the remainder, on the backend's clock,
   * and left to expire; a refusal means the lease was already gone, as for a refused release.
   */
  private CompletableFuture<ReleaseOutcome> keepUntilMinimumHold(long remainderNanos) {
    return acq.rt
        .backend()
        .extend(acq.backendKey, acq.owner, Duration.ofNanos(remainderNanos))
        .thenApply(
            o -> {
              if (o == null) {
                return null;
              }
              return o.extended() ? ReleaseOutcome.succeeded() : ReleaseOutcome.absent();
            });
  }

  private void onReleased(
      CompletableFuture<ReleaseOutcome> f, long heldNanos, boolean wasHeld, boolean wasActive) {
    Boolean ok = null;
    Throwable error = null;
    try {
      ReleaseOutcome o = f.join();
      ok = o == null ? null : o.released();
    } catch (CompletionException | java.util.concurrent.CancellationException e) {
      error = LockRuntime.unwrap(e);
    }
    if (error != null || ok == null) {
      acq.rt
          .log()
          .warn(
              "LockReleaseFailed [3104]: release of lock '{}' failed; the backend keeps the lease"
                  + " until it expires (about {})",
              acq.key,
              leaseEnd(),
              error);
    } else if (!ok && wasHeld) {
      Runnable hook;
      CompletableFuture<LossReason> signal;
      synchronized (this) {
        Extras x = extrasLocked();
        x.lossReason = LossReason.RELEASE_REFUSED;
        hook = null; // the action has ended: nothing to cancel
        signal = x.lostSignal;
      }
      reportLoss(LossReason.RELEASE_REFUSED, hook, signal);
      wasActive = false; // the loss ended the active lease
    }
    acq.rt.events().released(acq.key, heldNanos, wasActive);
  }
}
