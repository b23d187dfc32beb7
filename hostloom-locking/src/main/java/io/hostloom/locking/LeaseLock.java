package io.hostloom.locking;

import io.hostloom.locking.spi.LockBackend;
import io.hostloom.locking.spi.ReleaseSignal;
import io.hostloom.locking.time.LockClock;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.slf4j.Logger;

/**
 * The coordinated {@link DistributedLock} over a {@link LockBackend}: the entry points, which check
 * arguments, the closed state and re-entrancy, then hand one {@link Acquisition} its collaborators
 * ({@link LockRuntime}, {@link AcquisitionTracker}, an owner token). Thread-safe; one instance per
 * namespace is enough for a whole application.
 *
 * <p><b>Acquisition model: abandon the wait, never cancel the sent command.</b> Each attempt is one
 * backend call. The caller's interrupt, a cancelled future and {@code maxWait} only end the
 * caller's wait. The call itself is cancelled only when its lease has fully elapsed since the
 * request was sent, or when this lock is closed. An acquisition that does not become a handle is
 * cleaned up with at most one owner-checked release, nobody waits for: after a grant nobody waited
 * for, after a grant that arrived too late, and after a failure of kind {@code TIMEOUT}/{@code
 * OTHER} (or a cancelled call); never after {@code UNAVAILABLE} or "held". The release is bounded
 * by min(lease, 5 s) on the lock's clock, counted as an orphan release and logged at debug (3108).
 *
 * <p><b>Lease accounting.</b> A lease starts when the request is sent: the handle's lease end is
 * request time + lease on the monotonic clock, so a slow reply is spent lease. A grant whose reply
 * arrives at or after that point is rejected ({@link LockBackendUnavailableException}, kind {@code
 * TIMEOUT}) and released.
 *
 * <p><b>Wake on release.</b> When the backend implements {@link ReleaseSignal} and {@link
 * LockingOptions#wakeOnRelease()} is on, a refused first attempt whose retry wait follows
 * subscribes to the key's release signal and attempts once more at once, before waiting (so an
 * uncontended acquisition never subscribes, and a release between the refusal and the subscription
 * is not missed); every later attempt that may be followed by a wait subscribes before it is sent.
 * During the policy's delay a signal sends an extra ("woken") attempt at once. The signal is a
 * hint: a woken attempt refused before the delay ends uses no retry and the delay keeps running, so
 * the retry limit, {@code maxWait} and how long the acquisition can take are those of polling;
 * without a signal the wait is the policy's delay, as without the capability. Every attempt sent is
 * counted in {@link LockNotAcquiredException}. The subscription is cancelled when the attempt is
 * granted or the wait ends.
 *
 * <p><b>Closing</b> is idempotent: acquisitions in flight end with {@link IllegalStateException}
 * and their backend calls are cancelled (then released once); later calls throw {@link
 * IllegalStateException}; handles already granted keep working.
 */
final class LeaseLock implements DistributedLock {
  private static final int BACKEND_KEY_SLOTS = 64; // a power of two
  private final LockRuntime rt;
  private final AcquisitionTracker tracker;
  private final OwnerTokens owners = new OwnerTokens();
  private final String namespace;
  private final String prefix;
  // recently used backend keys, one per slot by the key's hash: a repeated key costs no
  // concatenation. Racy on purpose: a slot holds an immutable String (safely published by its
  // final fields), so a reader sees some whole key and checks it matches before using it.
  private final String[] backendKeys = new String[BACKEND_KEY_SLOTS];
  private final boolean detectReentrancy;
  private final int maxKeyLength;

  LeaseLock(
      LockingOptions options,
      LockBackend backend,
      LockClock clock,
      LockEventListener listener,
      Logger log) {
    this.namespace = options.namespace();
    this.tracker = new AcquisitionTracker(namespace);
    this.rt =
        LockRuntime.of(
            options, backend, clock, new LockEvents(listener, namespace, log), log, tracker);
    this.prefix = namespace + ":lock:";
    this.detectReentrancy = options.detectReentrancy();
    this.maxKeyLength = options.maxKeyLength();
    if (log.isInfoEnabled()) {
      log.info(
          "LockDerivedMaxWait [3101]: namespace '{}' retries with {}, at most {} ms of waiting",
          namespace,
          options.retry().description(),
          options.retry().maxTotalDelay().toMillis());
    }
    rt.events().lockOpened(true);
  }

  @Override
  public Optional<LockingOptions> options() {
    return Optional.of(rt.options());
  }

  @Override
  public LockDescription describe() {
    return LockDescription.of(rt.options(), rt.backend().name(), rt.releaseSignal() != null);
  }

  @Override
  public boolean isCoordinated() {
    return true;
  }

  /** Argument, closed and re-entrancy checks; returns the backend key. */
  private String checked(String key, LockOptions options) {
    Objects.requireNonNull(options, "options");
    LockKey.validate(key, maxKeyLength);
    tracker.checkOpen();
    String backendKey = backendKey(key);
    if (detectReentrancy) {
      Reentrancy.check(key, backendKey);
    }
    return backendKey;
  }

  /** {@code prefix + key}, from the cache when this key was used recently. */
  private String backendKey(String key) {
    int h = key.hashCode();
    int slot = (h ^ (h >>> 16)) & (BACKEND_KEY_SLOTS - 1);
    String cached = backendKeys[slot];
    int p = prefix.length();
    if (cached != null && cached.length() == p + key.length() && cached.startsWith(key, p)) {
      return cached; // every cached key starts with this lock's prefix
    }
    String k = prefix + key;
    backendKeys[slot] = k;
    return k;
  }

  private <R> Acquisition<R> start(
      AcquireMode<R> mode, String key, String backendKey, LockOptions options, Object parent) {
    return start(mode, key, backendKey, options, parent, false);
  }

  private <R> Acquisition<R> start(
      AcquireMode<R> mode,
      String key,
      String backendKey,
      LockOptions options,
      Object parent,
      boolean callerWaits) {
    Acquisition<R> a = new Acquisition<>(rt, mode, key, backendKey, owners.next(), options, parent);
    if (callerWaits) {
      a.startWaiting();
    } else {
      a.start();
    }
    return a;
  }

  private <R> R acquireBlocking(
      AcquireMode<R> mode, String key, String backendKey, LockOptions options, Object parent) {
    if (Thread.currentThread().isInterrupted()) {
      throw LockInterruptedException.acquiring(key); // nothing sent, nothing recorded
    }
    return start(mode, key, backendKey, options, parent, true).await();
  }

  // ---------------------------------------------------------------- blocking forms

  @Override
  public LockHandle acquire(String key, LockOptions options) {
    return acquireBlocking(AcquireMode.ACQUIRE, key, checked(key, options), options, null);
  }

  @Override
  public Optional<LockHandle> tryAcquire(String key, LockOptions options) {
    return Optional.ofNullable(
        acquireBlocking(AcquireMode.TRY, key, checked(key, options), options, null));
  }

  @Override
  public <T, X extends Exception> T executeWithLock(
      String key, LockOptions options, LockedCallable<T, X> action) throws X {
    Objects.requireNonNull(options, "options");
    Objects.requireNonNull(action, "action");
    String backendKey = checked(key, options);
    Object ctx = rt.events().executeStarted(key, true);
    Throwable failure = null;
    long hold = -1;
    try {
      LeaseHandle h = acquireBlocking(AcquireMode.ACQUIRE, key, backendKey, options, ctx);
      try {
        return runAction(h, backendKey, options.onLost(), action);
      } finally {
        h.close();
        hold = h.holdNanos();
      }
    } catch (Throwable t) {
      failure = t;
      throw t;
    } finally {
      rt.events().executeFinished(ctx, key, hold, failure);
    }
  }

  private <T, X extends Exception> T runAction(
      LeaseHandle h, String backendKey, OnLost onLost, LockedCallable<T, X> action) throws X {
    Reentrancy.Frame previous = detectReentrancy ? Reentrancy.push(backendKey) : null;
    ActionInterrupter interrupter = null;
    try {
      if (onLost == OnLost.CANCEL) {
        interrupter = new ActionInterrupter(Thread.currentThread());
        h.onLoss(interrupter);
      }
      h.checkStillHeld();
      return action.call(h);
    } finally {
      if (interrupter != null) {
        interrupter.end();
      }
      if (detectReentrancy) {
        Reentrancy.restore(previous);
      }
    }
  }

  // ---------------------------------------------------------------- async forms

  @Override
  public CompletableFuture<LockHandle> acquireAsync(String key, LockOptions options) {
    String backendKey = checked(key, options);
    CompletableFuture<LeaseHandle> f =
        start(AcquireMode.ACQUIRE, key, backendKey, options, null).asFuture();
    return widen(f);
  }

  @SuppressWarnings("unchecked") // a future of a subtype, handed out read-only as the supertype
  private static CompletableFuture<LockHandle> widen(CompletableFuture<LeaseHandle> f) {
    return (CompletableFuture<LockHandle>) (CompletableFuture<? extends LockHandle>) f;
  }

  @Override
  public CompletableFuture<Optional<LockHandle>> tryAcquireAsync(String key, LockOptions options) {
    String backendKey = checked(key, options);
    return start(AcquireMode.TRY_ASYNC, key, backendKey, options, null).asFuture();
  }

  @Override
  public <T> CompletableFuture<T> executeWithLockAsync(
      String key, LockOptions options, LockedAsyncFunction<T> action) {
    Objects.requireNonNull(action, "action");
    Objects.requireNonNull(options, "options");
    LockKey.validate(key, maxKeyLength);
    tracker.checkOpen();
    Object ctx = rt.events().executeStarted(key, true);
    String backendKey = backendKey(key);
    if (detectReentrancy) {
      Reentrancy.check(key, backendKey);
    }
    CompletableFuture<LeaseHandle> acquired =
        start(AcquireMode.ACQUIRE, key, backendKey, options, ctx).asFuture();
    return AsyncExecution.afterAcquire(rt.events(), key, ctx, acquired, options.onLost(), action);
  }

  // ---------------------------------------------------------------- closing

  /** Closes the lock; see the class documentation. Idempotent; never blocks on the backend. */
  @Override
  public void close() {
    if (tracker.close()) {
      rt.events().lockClosed(true);
    }
  }
}
