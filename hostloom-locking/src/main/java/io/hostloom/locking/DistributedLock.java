package io.hostloom.locking;

import io.hostloom.locking.spi.LockBackend;
import io.hostloom.locking.spi.ReleaseSignal;
import io.hostloom.locking.time.LockClock;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A backend-neutral distributed lock: leases with owner tokens, retries, lost-lease detection,
 * optional automatic extension and fencing tokens. {@link #create} and {@link #builder} build one
 * over any {@link LockBackend}, without a container; the implementation is not public API. Close
 * the lock when the application stops.
 *
 * <p><b>Coordination, not correctness.</b> The lock keeps instances from doing the same work at the
 * same time. A lease can run out while an action still runs, and a backend can lose a grant: keep
 * correctness in the protected resource (transactions, unique constraints, {@link
 * LockHandle#fencingToken() fencing tokens}).
 *
 * <p><b>Keys.</b> Opaque, non-empty, at most {@link LockingOptions#maxKeyLength()} UTF-16 units, no
 * whitespace or control characters ({@link LockKey}); a backend sees {@code
 * <namespace>:lock:<key>}. A bad key throws {@link IllegalArgumentException} (null: {@link
 * NullPointerException}) before any backend call, in every mode.
 *
 * <p><b>Blocking and interruption.</b> Blocking methods wait on the lock's clock without spinning.
 * If the calling thread is interrupted before or during the wait, the wait is abandoned, the
 * interrupt flag is set again and {@link LockInterruptedException} is thrown; a backend command
 * already sent is never cancelled, and a grant that arrives later is released by the lock (one
 * owner-checked release). The {@code *Async} forms never block; cancelling their future is the same
 * as interrupting the blocking form. Argument, reentrancy and closed-lock errors are thrown
 * synchronously by every form.
 *
 * <p><b>Outcomes.</b> Contention is a value for {@code tryAcquire} (empty) and {@link
 * LockNotAcquiredException} for the others; a backend failure is {@link
 * LockBackendUnavailableException} (never retried); a key the calling thread already holds through
 * {@link #executeWithLock} is {@link LockReentrancyException} (when {@link
 * LockingOptions#detectReentrancy()}); a closed lock throws {@link IllegalStateException}.
 *
 * <p><b>Acquisition model</b> (the kernel's locks): the caller's interrupt, a cancelled future and
 * {@code maxWait} only end the caller's wait; a backend command already sent is cancelled only when
 * its lease has fully elapsed or the lock is closed, and an acquisition that does not become a
 * handle is cleaned up with at most one owner-checked release (after a grant nobody waited for or
 * one that arrived too late, and after a failure of kind {@code TIMEOUT}/{@code OTHER}; never after
 * {@code UNAVAILABLE} or "held"), bounded by min(lease, 5 s) and logged at debug (3108). A lease
 * starts when the request is sent, so a slow reply is spent lease; a grant that arrives after its
 * lease was spent is {@link LockBackendUnavailableException} (kind {@code TIMEOUT}) and released.
 * With a backend that implements {@link ReleaseSignal} and {@link LockingOptions#wakeOnRelease()},
 * a release during a retry wait sends an extra attempt at once; the retry limit and {@code maxWait}
 * stay those of polling.
 *
 * <p><b>Log events</b> (logger {@value #DEFAULT_LOGGER} by default; the message starts with the
 * event name and id): 3100 LockingDisabled (warn), 3101 LockDerivedMaxWait (info), 3102
 * LockLeaseLost (warn), 3103 LockHoldThreshold (warn), 3104 LockReleaseFailed (warn), 3105
 * LockExtendFailed (warn), 3106 LockAutoExtendStopped (info), 3107 LockCancellationCallbackFailed
 * (warn), 3108 LockOrphanRelease (debug). Owner tokens are never logged.
 */
public interface DistributedLock extends AutoCloseable {
  /** The default logger name. */
  String DEFAULT_LOGGER = "io.hostloom.locking.DistributedLock";

  /**
   * {@code true} when grants are real claims on a shared backend; {@code false} in single-instance
   * (disabled) mode, whose handles are placeholders.
   */
  boolean isCoordinated();

  /**
   * The options this lock was built with, so that a component can check its own settings against
   * the lock's (a lease above the lock's max lease, a hold above its max hold). Never contacts the
   * backend. Empty for a lock that is not one of the kernel's (built by {@link #create} or {@link
   * #builder}), the default.
   */
  default Optional<LockingOptions> options() {
    return Optional.empty();
  }

  /**
   * The lock's composition for start-up logs and diagnostics; never contacts the backend. For a
   * lock that is not one of the kernel's (the default): an empty namespace, its class name,
   * enabled, zero durations and one line saying nothing more is known.
   */
  default LockDescription describe() {
    return LockDescription.unknown(getClass().getName());
  }

  /**
   * Acquires {@code key} (retrying per the options' policy, bounded by their {@code maxWait}), runs
   * {@code action} on the calling thread, and releases in a {@code finally}, also when the action
   * throws. What the action throws propagates unchanged. With {@link OnLost#CANCEL} a loss
   * interrupts the calling thread while the action runs; the flag is cleared when the action ends.
   *
   * @throws LockNotAcquiredException when the key stayed busy
   * @throws LockBackendUnavailableException when the backend failed
   * @throws LockInterruptedException when interrupted while acquiring (the action never started)
   * @throws X what the action throws
   */
  <T, X extends Exception> T executeWithLock(
      String key, LockOptions options, LockedCallable<T, X> action) throws X;

  /**
   * {@link #executeWithLock(String, LockOptions, LockedCallable)} with {@link
   * LockOptions#DEFAULTS}.
   */
  default <T, X extends Exception> T executeWithLock(String key, LockedCallable<T, X> action)
      throws X {
    return executeWithLock(key, LockOptions.DEFAULTS, action);
  }

  /**
   * The void form of {@link #executeWithLock(String, LockOptions, LockedCallable)} (a separate name
   * because a lambda could match both forms).
   */
  default <X extends Exception> void runWithLock(
      String key, LockOptions options, LockedRunnable<X> action) throws X {
    executeWithLock(
        key,
        options,
        (LockedCallable<Void, X>)
            h -> {
              action.run(h);
              return null;
            });
  }

  /**
   * {@link #runWithLock(String, LockOptions, LockedRunnable)} with {@link LockOptions#DEFAULTS}.
   */
  default <X extends Exception> void runWithLock(String key, LockedRunnable<X> action) throws X {
    runWithLock(key, LockOptions.DEFAULTS, action);
  }

  /**
   * Acquires {@code key}, retrying per the options' policy and {@code maxWait}; blocks until
   * granted or given up. Close the handle to release.
   *
   * @throws LockNotAcquiredException when the key stayed busy
   * @throws LockBackendUnavailableException when the backend failed
   * @throws LockInterruptedException when interrupted while waiting
   */
  LockHandle acquire(String key, LockOptions options);

  /** {@link #acquire(String, LockOptions)} with {@link LockOptions#DEFAULTS}. */
  default LockHandle acquire(String key) {
    return acquire(key, LockOptions.DEFAULTS);
  }

  /**
   * Like {@link #acquire(String, LockOptions)}, but contention is an empty result instead of an
   * exception. Follows the options' retry policy and {@code maxWait}.
   */
  Optional<LockHandle> tryAcquire(String key, LockOptions options);

  /**
   * Skip if busy: exactly one attempt ({@link LockOptions#SKIP_IF_BUSY}), never sleeps; empty when
   * another owner holds the key.
   */
  default Optional<LockHandle> tryAcquire(String key) {
    return tryAcquire(key, LockOptions.SKIP_IF_BUSY);
  }

  /** {@link #acquire(String, LockOptions)} without blocking. */
  CompletableFuture<LockHandle> acquireAsync(String key, LockOptions options);

  default CompletableFuture<LockHandle> acquireAsync(String key) {
    return acquireAsync(key, LockOptions.DEFAULTS);
  }

  /** {@link #tryAcquire(String, LockOptions)} without blocking. */
  CompletableFuture<Optional<LockHandle>> tryAcquireAsync(String key, LockOptions options);

  default CompletableFuture<Optional<LockHandle>> tryAcquireAsync(String key) {
    return tryAcquireAsync(key, LockOptions.SKIP_IF_BUSY);
  }

  /**
   * Acquires, runs {@code action}, and releases when its stage completes. With {@link
   * OnLost#CANCEL} a loss cancels the action's future (its {@code toCompletableFuture()}).
   * Cancelling the returned future while acquiring abandons the acquisition; once the action has
   * started it only stops the caller's wait, the lock is released when the action's stage ends.
   */
  <T> CompletableFuture<T> executeWithLockAsync(
      String key, LockOptions options, LockedAsyncFunction<T> action);

  default <T> CompletableFuture<T> executeWithLockAsync(String key, LockedAsyncFunction<T> action) {
    return executeWithLockAsync(key, LockOptions.DEFAULTS, action);
  }

  /**
   * Closes the lock: acquisitions in flight end with {@link IllegalStateException} and their
   * backend calls are cancelled (then released once); later calls throw {@link
   * IllegalStateException}; handles already granted keep working. Idempotent; never throws.
   *
   * <p><b>Who closes what.</b> The lock does not close the backend it was given: whoever built the
   * backend closes it (after the lock), because one backend may serve several locks, a WOPI lock
   * provider or a health check. So this method never blocks on the backend, unless the lock was
   * built with {@link Builder#closeBackendOnClose()}: then it closes the backend (when that is
   * {@link AutoCloseable}) right after the lock, once, and may wait for the backend's own shutdown
   * (connections, threads); a failure to close it is logged, not thrown.
   */
  @Override
  void close();

  /**
   * A lock over {@code backend} on the system clock, without a listener.
   *
   * @throws IllegalArgumentException when {@code options.validate()} finds problems (all listed)
   * @throws NullPointerException when enabled and {@code backend} is null
   */
  static DistributedLock create(LockingOptions options, LockBackend backend) {
    return builder(options, backend).build();
  }

  /**
   * A builder for a lock with its own clock, listener or logger, over {@code backend} ({@code null}
   * allowed only when {@code options} disable locking).
   */
  static Builder builder(LockingOptions options, LockBackend backend) {
    return new Builder(options, backend);
  }

  /**
   * Builds the kernel's lock: coordinated over the backend, or, when {@link
   * LockingOptions#enabled()} is false, single-instance mode (no backend; every call runs at once
   * on a placeholder handle whose {@link LockHandle#isCoordinated()} is false).
   */
  final class Builder {
    private final LockingOptions options;
    private final LockBackend backend;
    private LockClock clock = LockClock.system();
    private LockEventListener listener = LockEventListener.NO_OP;
    private String loggerName = DEFAULT_LOGGER;
    private Logger logger;
    private boolean closeBackend;

    private Builder(LockingOptions options, LockBackend backend) {
      this.options = Objects.requireNonNull(options, "options");
      this.backend = backend;
    }

    /** The clock for every deadline and timer. Default {@link LockClock#system()}. */
    public Builder clock(LockClock clock) {
      this.clock = Objects.requireNonNull(clock, "clock");
      return this;
    }

    /**
     * Receives the lock's events. Default {@link LockEventListener#NO_OP}; several: {@link
     * LockEventListener#composite}.
     */
    public Builder listener(LockEventListener listener) {
      this.listener = Objects.requireNonNull(listener, "listener");
      return this;
    }

    /** The slf4j logger name. Default {@value DistributedLock#DEFAULT_LOGGER}. */
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
     * Hands the backend to the lock: {@link DistributedLock#close()} then closes it too (when it is
     * {@link AutoCloseable}), right after the lock. For a backend built only for this lock.
     * Default: the lock leaves the backend open and its builder closes it.
     */
    public Builder closeBackendOnClose() {
      this.closeBackend = true;
      return this;
    }

    /**
     * Builds the lock.
     *
     * @throws IllegalArgumentException listing every problem {@link LockingOptions#validate()}
     *     finds
     * @throws NullPointerException when locking is enabled and there is no backend
     */
    public DistributedLock build() {
      options.requireValid();
      if (options.enabled()) {
        Objects.requireNonNull(backend, "backend (required when locking is enabled)");
      }
      Logger log = logger != null ? logger : LoggerFactory.getLogger(loggerName);
      DistributedLock lock =
          options.enabled()
              ? new LeaseLock(options, backend, clock, listener, log)
              : new DisabledLock(options, listener, log);
      return closeBackend && backend instanceof AutoCloseable owned
          ? new BackendOwningLock(lock, owned, log)
          : lock;
    }
  }
}
