package io.hostloom.locking;

import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.slf4j.Logger;

/**
 * Single-instance mode ({@code enabled = false}): no backend; every call runs at once on a {@link
 * DisabledHandle} placeholder, after the same argument and closed checks as a coordinated lock.
 * Reports {@code lockOpened}/{@code lockClosed} and {@code execute*} events (with {@code
 * coordinated = false}); no acquisition events.
 */
final class DisabledLock implements DistributedLock {
  private final LockingOptions options;
  private final LockEvents events;
  private final AcquisitionTracker closed; // never tracks an acquisition: only the closed flag
  private final int maxKeyLength;

  DisabledLock(LockingOptions options, LockEventListener listener, Logger log) {
    this.options = options;
    this.events = new LockEvents(listener, options.namespace(), log);
    this.closed = new AcquisitionTracker(options.namespace());
    this.maxKeyLength = options.maxKeyLength();
    log.warn(
        "LockingDisabled [3100]: locking is disabled for namespace '{}': actions run at once"
            + " without coordination (single-instance mode)",
        options.namespace());
    events.lockOpened(false);
  }

  @Override
  public Optional<LockingOptions> options() {
    return Optional.of(options);
  }

  @Override
  public LockDescription describe() {
    return LockDescription.of(options, "(disabled)", false);
  }

  @Override
  public boolean isCoordinated() {
    return false;
  }

  private DisabledHandle placeholder(String key, LockOptions options) {
    Objects.requireNonNull(options, "options");
    LockKey.validate(key, maxKeyLength);
    closed.checkOpen();
    return new DisabledHandle(key);
  }

  @Override
  public <T, X extends Exception> T executeWithLock(
      String key, LockOptions options, LockedCallable<T, X> action) throws X {
    Objects.requireNonNull(options, "options");
    Objects.requireNonNull(action, "action");
    DisabledHandle h = placeholder(key, options);
    Object ctx = events.executeStarted(key, false);
    Throwable failure = null;
    try {
      return action.call(h);
    } catch (Throwable t) {
      failure = t;
      throw t;
    } finally {
      events.executeFinished(ctx, key, -1, failure);
    }
  }

  @Override
  public LockHandle acquire(String key, LockOptions options) {
    return placeholder(key, options);
  }

  @Override
  public Optional<LockHandle> tryAcquire(String key, LockOptions options) {
    return Optional.of(placeholder(key, options));
  }

  @Override
  public CompletableFuture<LockHandle> acquireAsync(String key, LockOptions options) {
    return CompletableFuture.completedFuture(placeholder(key, options));
  }

  @Override
  public CompletableFuture<Optional<LockHandle>> tryAcquireAsync(String key, LockOptions options) {
    return CompletableFuture.completedFuture(Optional.of(placeholder(key, options)));
  }

  @Override
  public <T> CompletableFuture<T> executeWithLockAsync(
      String key, LockOptions options, LockedAsyncFunction<T> action) {
    Objects.requireNonNull(action, "action");
    placeholder(key, options);
    Object ctx = events.executeStarted(key, false);
    return AsyncExecution.placeholder(events, key, ctx, action);
  }

  /** Idempotent; later calls throw {@link IllegalStateException}. */
  @Override
  public void close() {
    if (closed.close()) {
      events.lockClosed(false);
    }
  }
}
