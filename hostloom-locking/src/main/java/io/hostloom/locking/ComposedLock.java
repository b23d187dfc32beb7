package io.hostloom.locking;

import io.hostloom.locking.spi.LockBackend;
import io.hostloom.locking.spi.ReleaseSignal;
import io.hostloom.locking.time.LockClock;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@link DistributedLock} composed from a {@link LockBackend}, a {@link LockClock}, a {@link
 * LockEventListener} and a logger; usable with plain constructors and no container. Thread-safe;
 * one instance per namespace is enough for a whole application.
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
 * arrives at or after that point is rejected ({@link LockProviderUnavailableException}, kind {@code
 * TIMEOUT}) and released.
 *
 * <p><b>Wake on release.</b> When the backend implements {@link ReleaseSignal} and {@link
 * LockingOptions#wakeOnRelease()} is on, an attempt that may be followed by a retry wait first
 * subscribes to the key's release signal; during the policy's delay a signal sends an extra
 * ("woken") attempt at once. The signal is a hint: a woken attempt refused before the delay ends
 * uses no retry and the delay keeps running, so the retry limit, {@code maxWait} and how long the
 * acquisition can take are those of polling; without a signal the wait is the policy's delay, as
 * without the capability. Every attempt sent is counted in {@link LockNotAcquiredException}. The
 * subscription is cancelled when the attempt is granted or the wait ends.
 *
 * <p><b>Closing</b> ({@link #close()}) is idempotent: acquisitions in flight end with {@link
 * IllegalStateException} and their backend calls are cancelled (then released once); later calls
 * throw {@link IllegalStateException}; handles already granted keep working.
 *
 * <p><b>Log events</b> (logger {@value #DEFAULT_LOGGER} by default; the message starts with the
 * event name and id): 3100 LockingDisabled (warn), 3101 LockDerivedMaxWait (info), 3102
 * LockLeaseLost (warn), 3103 LockHoldThreshold (warn), 3104 LockReleaseFailed (warn), 3105
 * LockExtendFailed (warn), 3106 LockAutoExtendStopped (info), 3107 LockCancellationCallbackFailed
 * (warn), 3108 LockOrphanRelease (debug). Owner tokens are never logged.
 */
public final class ComposedLock implements DistributedLock, AutoCloseable {
  /** The default logger name. */
  public static final String DEFAULT_LOGGER = "io.hostloom.locking.DistributedLock";

  static final long ORPHAN_RELEASE_TIMEOUT_NANOS = Duration.ofSeconds(5).toNanos();

  final LockingOptions options;
  final LockBackend backend;
  final ReleaseSignal releaseSignal; // the backend's, when it has one and wake-on-release is on
  final LockClock clock;
  final LockEventListener listener;
  final Logger log;
  final String namespace;
  final boolean enabled;
  final long maxLeaseNanos;
  final long maxHoldNanos;
  private final String prefix;
  private final long defaultLeaseNanos;
  private final boolean detectReentrancy;
  // One generator per lock: SecureRandom draws from the OS (NativePRNG mixes /dev/urandom into
  // every call), so a cloned or restored JVM does not repeat tokens as a seeded sequence would.
  private final SecureRandom ownerRandom = new SecureRandom();
  private final Set<Acquisition> inFlight = ConcurrentHashMap.newKeySet();
  private final AtomicBoolean closed = new AtomicBoolean();

  private ComposedLock(Builder b) {
    List<String> problems = b.options.validate();
    if (!problems.isEmpty()) {
      throw new IllegalArgumentException("invalid locking options: " + String.join("; ", problems));
    }
    this.options = b.options;
    this.enabled = options.enabled();
    if (enabled) {
      Objects.requireNonNull(b.backend, "backend (required when locking is enabled)");
    }
    this.backend = enabled ? b.backend : null;
    this.releaseSignal = options.wakeOnRelease() && backend instanceof ReleaseSignal s ? s : null;
    this.clock = b.clock;
    this.log = b.logger != null ? b.logger : LoggerFactory.getLogger(b.loggerName);
    this.listener =
        b.listener == LockEventListener.NO_OP ? b.listener : new SafeListener(b.listener, log);
    this.namespace = options.namespace();
    this.prefix = namespace + ":lock:";
    this.defaultLeaseNanos = nanos(options.defaultLease());
    this.maxLeaseNanos = nanos(options.maxLease());
    this.maxHoldNanos = nanos(options.maxHold());
    this.detectReentrancy = options.detectReentrancy();
    if (!enabled) {
      log.warn(
          "LockingDisabled [3100]: locking is disabled for namespace '{}': actions run at once"
              + " without coordination (single-instance mode)",
          namespace);
    } else if (log.isInfoEnabled()) {
      log.info(
          "LockDerivedMaxWait [3101]: namespace '{}' retries with {}, at most {} ms of waiting",
          namespace,
          options.retry().description(),
          options.retry().maxTotalDelay().toMillis());
    }
    listener.lockOpened(namespace, enabled);
  }

  /**
   * A builder over {@code backend} ({@code null} allowed only when {@code options} disable
   * locking).
   */
  public static Builder builder(LockingOptions options, LockBackend backend) {
    return new Builder(options, backend);
  }

  public String namespace() {
    return namespace;
  }

  public boolean enabled() {
    return enabled;
  }

  public LockingOptions options() {
    return options;
  }

  @Override
  public boolean isCoordinated() {
    return enabled;
  }

  /** The composition, without contacting the backend; see {@link LockingProbe}. */
  public LockDescription describe() {
    String backendName = enabled ? backend.name() : "(disabled)";
    LockRetryPolicy retry = options.retry();
    Duration maxWait = retry.maxTotalDelay();
    List<String> lines = new ArrayList<>(7);
    lines.add(LockingOptions.KEY_NAMESPACE + " = " + namespace);
    lines.add("backend = " + backendName + ", " + LockingOptions.KEY_ENABLED + " = " + enabled);
    lines.add(
        LockingOptions.KEY_DEFAULT_LEASE
            + " = "
            + options.defaultLease()
            + ", "
            + LockingOptions.KEY_MAX_LEASE
            + " = "
            + options.maxLease()
            + ", "
            + LockingOptions.KEY_MAX_HOLD
            + " = "
            + options.maxHold()
            + (options.strictMaxHold() ? " (strict)" : ""));
    lines.add(
        LockingOptions.KEY_RETRY
            + " = "
            + retry.description()
            + ", derived max wait "
            + maxWait.toMillis()
            + " ms");
    lines.add(LockingOptions.KEY_AUTO_EXTEND + " = " + options.autoExtend());
    lines.add(LockingOptions.KEY_DETECT_REENTRANCY + " = " + detectReentrancy);
    lines.add(
        LockingOptions.KEY_WAKE_ON_RELEASE
            + " = "
            + options.wakeOnRelease()
            + (releaseSignal != null
                ? " (the backend signals releases: a release also starts an attempt that uses no retry;"
                    + " polling as fallback)"
                : enabled && options.wakeOnRelease()
                    ? " (the backend has no release signal: retry waits poll)"
                    : " (retry waits poll)"));
    return new LockDescription(
        namespace,
        backendName,
        enabled,
        options.defaultLease(),
        options.maxLease(),
        retry.description(),
        maxWait,
        lines);
  }

  // ---------------------------------------------------------------- blocking forms

  @Override
  public LockHandle acquire(String key, LockOptions options) {
    return (LockHandle) acquireBlocking(key, options, Acquisition.ACQUIRE, null);
  }

  @Override
  public Optional<LockHandle> tryAcquire(String key, LockOptions options) {
    return Optional.ofNullable((LockHandle) acquireBlocking(key, options, Acquisition.TRY, null));
  }

  @Override
  public <T, X extends Exception> T executeWithLock(
      String key, LockOptions options, LockedCallable<T, X> action) throws X {
    Objects.requireNonNull(options, "options");
    Objects.requireNonNull(action, "action");
    LockKey.validate(key, this.options.maxKeyLength());
    checkOpen();
    if (!enabled) {
      Object ctx = listener.executeStarted(namespace, key, false);
      Throwable failure = null;
      try {
        return action.call(new DisabledHandle(key));
      } catch (Throwable t) {
        failure = t;
        throw t;
      } finally {
        listener.executeFinished(ctx, namespace, key, -1, failure);
      }
    }
    String backendKey = prefix + key;
    checkReentrancy(key, backendKey);
    Object ctx = listener.executeStarted(namespace, key, true);
    Throwable failure = null;
    long hold = -1;
    try {
      LeaseHandle h =
          (LeaseHandle) acquireBlocking0(key, backendKey, options, Acquisition.ACQUIRE, ctx);
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
      listener.executeFinished(ctx, namespace, key, hold, failure);
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

  private Object acquireBlocking(String key, LockOptions options, int mode, Object parent) {
    Objects.requireNonNull(options, "options");
    LockKey.validate(key, this.options.maxKeyLength());
    checkOpen();
    if (!enabled) {
      return new DisabledHandle(key);
    }
    String backendKey = prefix + key;
    checkReentrancy(key, backendKey);
    return acquireBlocking0(key, backendKey, options, mode, parent);
  }

  private Object acquireBlocking0(
      String key, String backendKey, LockOptions options, int mode, Object parent) {
    if (Thread.currentThread().isInterrupted()) {
      throw LockInterruptedException.acquiring(key); // nothing sent, nothing recorded
    }
    Acquisition a = new Acquisition(this, key, backendKey, options, mode, parent);
    a.start();
    return a.await();
  }

  // ---------------------------------------------------------------- async forms

  @Override
  public CompletableFuture<LockHandle> acquireAsync(String key, LockOptions options) {
    return cast(acquireAsync0(key, options, Acquisition.ACQUIRE, null));
  }

  @Override
  public CompletableFuture<Optional<LockHandle>> tryAcquireAsync(String key, LockOptions options) {
    return cast(acquireAsync0(key, options, Acquisition.TRY_ASYNC, null));
  }

  @SuppressWarnings("unchecked") // the acquisition's mode decides the value type
  private static <R> CompletableFuture<R> cast(CompletableFuture<Object> f) {
    return (CompletableFuture<R>) (CompletableFuture<?>) f;
  }

  private CompletableFuture<Object> acquireAsync0(
      String key, LockOptions options, int mode, Object parent) {
    Objects.requireNonNull(options, "options");
    LockKey.validate(key, this.options.maxKeyLength());
    checkOpen();
    if (!enabled) {
      DisabledHandle h = new DisabledHandle(key);
      return CompletableFuture.completedFuture(mode == Acquisition.TRY_ASYNC ? Optional.of(h) : h);
    }
    String backendKey = prefix + key;
    checkReentrancy(key, backendKey);
    Acquisition a = new Acquisition(this, key, backendKey, options, mode, parent);
    a.start();
    return a.asFuture();
  }

  @Override
  public <T> CompletableFuture<T> executeWithLockAsync(
      String key, LockOptions options, LockedAsyncFunction<T> action) {
    Objects.requireNonNull(action, "action");
    Objects.requireNonNull(options, "options");
    LockKey.validate(key, this.options.maxKeyLength());
    checkOpen();
    Object ctx = listener.executeStarted(namespace, key, enabled);
    CompletableFuture<T> out = new CompletableFuture<>();
    if (!enabled) {
      CompletionStage<T> stage = start(action, new DisabledHandle(key));
      stage.whenComplete(
          (r, e) -> {
            listener.executeFinished(ctx, namespace, key, -1, unwrap(e));
            complete(out, r, e);
          });
      return out;
    }
    String backendKey = prefix + key;
    checkReentrancy(key, backendKey);
    Acquisition a = new Acquisition(this, key, backendKey, options, Acquisition.ACQUIRE, ctx);
    a.start();
    CompletableFuture<Object> acquired = a.asFuture();
    var unused =
        out.whenComplete(
            (r, e) -> {
              if (out.isCancelled()) {
                acquired.cancel(false); // abandons a pending acquisition; no-op once granted
              }
            });
    var unused2 =
        acquired.whenComplete(
            (hv, e) -> {
              if (e != null) {
                Throwable cause = unwrap(e);
                listener.executeFinished(ctx, namespace, key, -1, cause);
                out.completeExceptionally(cause);
              } else {
                runAsyncAction((LeaseHandle) hv, options.onLost(), action, ctx, out);
              }
            });
    return out;
  }

  private <T> void runAsyncAction(
      LeaseHandle h,
      OnLost onLost,
      LockedAsyncFunction<T> action,
      Object ctx,
      CompletableFuture<T> out) {
    CompletionStage<T> stage;
    try {
      h.checkStillHeld();
      stage = start(action, h);
    } catch (RuntimeException ex) {
      stage = CompletableFuture.failedFuture(ex);
    }
    if (onLost == OnLost.CANCEL) {
      CompletionStage<T> s = stage;
      h.onLoss(() -> s.toCompletableFuture().cancel(true));
    }
    stage.whenComplete(
        (r, ex) -> {
          var unused =
              h.closeAsync()
                  .whenComplete(
                      (v, ignored) -> {
                        listener.executeFinished(
                            ctx, namespace, h.key(), h.holdNanos(), unwrap(ex));
                        complete(out, r, ex);
                      });
        });
  }

  private static <T> CompletionStage<T> start(LockedAsyncFunction<T> action, LockHandle h) {
    try {
      CompletionStage<T> s = action.apply(h);
      return s != null ? s : CompletableFuture.failedFuture(new NullPointerException("stage"));
    } catch (RuntimeException e) {
      return CompletableFuture.failedFuture(e);
    }
  }

  private static <T> void complete(CompletableFuture<T> out, T value, Throwable e) {
    if (e != null) {
      out.completeExceptionally(unwrap(e));
    } else {
      out.complete(value);
    }
  }

  static Throwable unwrap(Throwable e) {
    return e instanceof CompletionException && e.getCause() != null ? e.getCause() : e;
  }

  // ---------------------------------------------------------------- closing

  /** Closes the lock; see the class documentation. Idempotent; never blocks on the backend. */
  @Override
  public void close() {
    if (!closed.compareAndSet(false, true)) {
      return;
    }
    for (Acquisition a : inFlight) {
      a.closedByLock();
    }
    listener.lockClosed(namespace, enabled);
  }

  boolean isClosed() {
    return closed.get();
  }

  void track(Acquisition a) {
    inFlight.add(a);
  }

  void untrack(Acquisition a) {
    inFlight.remove(a);
  }

  private void checkOpen() {
    if (closed.get()) {
      throw closedException();
    }
  }

  IllegalStateException closedException() {
    return new IllegalStateException("lock for namespace '" + namespace + "' is closed");
  }

  private void checkReentrancy(String key, String backendKey) {
    if (detectReentrancy && Reentrancy.holds(backendKey)) {
      throw LockReentrancyException.of(key);
    }
  }

  // ---------------------------------------------------------------- helpers for the state machine

  /** The effective lease in nanos for {@code o}: its lease or the default, capped at max lease. */
  long leaseNanos(LockOptions o) {
    Duration l = o.leaseOrNull();
    return l == null ? defaultLeaseNanos : Math.min(nanos(l), maxLeaseNanos);
  }

  /** The {@code Duration} for {@link #leaseNanos}, reusing the caller's object when uncapped. */
  Duration leaseDuration(LockOptions o, long leaseNanos) {
    Duration l = o.leaseOrNull();
    if (l == null) {
      return options.defaultLease().toNanos() == leaseNanos
          ? options.defaultLease()
          : options.maxLease();
    }
    return nanos(l) == leaseNanos ? l : options.maxLease();
  }

  /**
   * A fresh owner token: 128 bits from {@link SecureRandom} for every acquisition, as 32 lowercase
   * hex characters. Two acquisitions share a token only with a 2^-128 chance per pair, whatever the
   * process, the lock instance or a JVM snapshot it was restored from.
   */
  String newOwner() {
    byte[] r = new byte[16];
    ownerRandom.nextBytes(r);
    byte[] b = new byte[32];
    for (int i = 0; i < 16; i++) {
      b[2 * i] = HEX[(r[i] >> 4) & 0xF];
      b[2 * i + 1] = HEX[r[i] & 0xF];
    }
    return new String(b, StandardCharsets.ISO_8859_1);
  }

  private static final byte[] HEX = "0123456789abcdef".getBytes(StandardCharsets.ISO_8859_1);

  static long nanos(Duration d) {
    try {
      return d.toNanos();
    } catch (ArithmeticException e) {
      return d.isNegative() ? Long.MIN_VALUE : Long.MAX_VALUE / 4;
    }
  }

  /** Builder of a {@link ComposedLock}. */
  public static final class Builder {
    private final LockingOptions options;
    private final LockBackend backend;
    private LockClock clock = LockClock.system();
    private LockEventListener listener = LockEventListener.NO_OP;
    private String loggerName = DEFAULT_LOGGER;
    private Logger logger;

    private Builder(LockingOptions options, LockBackend backend) {
      this.options = Objects.requireNonNull(options, "options");
      this.backend = backend;
    }

    /** The clock for every deadline and timer. Default {@link LockClock#system()}. */
    public Builder clock(LockClock clock) {
      this.clock = Objects.requireNonNull(clock, "clock");
      return this;
    }

    /** Receives the lock's events. Default {@link LockEventListener#NO_OP}. */
    public Builder listener(LockEventListener listener) {
      this.listener = Objects.requireNonNull(listener, "listener");
      return this;
    }

    /** The slf4j logger name. Default {@value ComposedLock#DEFAULT_LOGGER}. */
    public Builder loggerName(String loggerName) {
      this.loggerName = Objects.requireNonNull(loggerName, "loggerName");
      this.logger = null;
      return this;
    }

    /** A logger instance to use instead of one looked up by name. */
    public Builder logger(Logger logger) {
      this.logger = Objects.requireNonNull(logger, "logger");
      return this;
    }

    /**
     * Builds the lock.
     *
     * @throws IllegalArgumentException listing every problem {@link LockingOptions#validate()}
     *     finds
     * @throws NullPointerException when locking is enabled and there is no backend
     */
    public ComposedLock build() {
      return new ComposedLock(this);
    }
  }
}
