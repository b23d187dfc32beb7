package io.hostloom.redis;

import io.hostloom.locking.spi.LockBackendException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * A connection opened on first use and shared afterwards. A failed or timed-out open is forgotten,
 * so the next use tries again: the backend can be built while Redis is down and starts working once
 * it is up. Once open, Lettuce's auto-reconnect keeps the connection alive.
 */
final class LazyConnection<C> {
  private final Supplier<CompletableFuture<C>> opener;
  private final Function<C, CompletableFuture<Void>> closer;
  private final Duration timeout;
  private final AtomicReference<CompletableFuture<C>> current = new AtomicReference<>();
  private volatile boolean closed;

  /**
   * @param opener starts opening a connection
   * @param closer closes a connection this object opened (a no-op for a user's connection)
   * @param timeout bound on one open attempt
   */
  LazyConnection(
      Supplier<CompletableFuture<C>> opener,
      Function<C, CompletableFuture<Void>> closer,
      Duration timeout) {
    this.opener = opener;
    this.closer = closer;
    this.timeout = timeout;
  }

  /** A connection that is already open (the user's): never reopened, never closed. */
  static <C> LazyConnection<C> of(C connection) {
    CompletableFuture<C> done = CompletableFuture.completedFuture(connection);
    return new LazyConnection<>(
        () -> done, c -> CompletableFuture.completedFuture(null), Duration.ofDays(1));
  }

  /** The open connection, or a future failing with the open's failure (mapped as UNAVAILABLE). */
  CompletableFuture<C> get() {
    while (true) {
      if (closed) {
        return CompletableFuture.failedFuture(
            LockBackendException.unavailable("Redis backend is closed", null));
      }
      CompletableFuture<C> f = current.get();
      if (f != null && !f.isCompletedExceptionally()) {
        return f;
      }
      CompletableFuture<C> next = new CompletableFuture<>();
      if (current.compareAndSet(f, next)) {
        open(next);
        return next;
      }
    }
  }

  /** The connection when it is open now, else null (then {@link #get()} opens or explains). */
  C now() {
    CompletableFuture<C> f = current.get();
    return f == null || closed || !f.isDone() || f.isCompletedExceptionally() ? null : f.join();
  }

  private void open(CompletableFuture<C> target) {
    CompletableFuture<C> attempt;
    try {
      attempt = opener.get();
    } catch (RuntimeException e) {
      target.completeExceptionally(e);
      return;
    }
    var unused =
        attempt.whenComplete(
            (c, t) -> {
              if (t != null) {
                target.completeExceptionally(unavailable(t));
              } else if (!target.complete(c) || closed) {
                // opened after our timeout or after close(): nobody will use it
                var unused2 = closer.apply(c);
              }
            });
    CompletableFuture.delayedExecutor(timeout.toNanos(), TimeUnit.NANOSECONDS)
        .execute(
            () ->
                target.completeExceptionally(
                    LockBackendException.unavailable(
                        "Redis connect timed out after " + timeout, null)));
  }

  private static LockBackendException unavailable(Throwable t) {
    Throwable cause = RedisFailures.unwrap(t);
    if (cause instanceof LockBackendException e) {
      return e;
    }
    return LockBackendException.unavailable(
        "Redis connect failed: " + cause.getClass().getSimpleName(), cause);
  }

  /**
   * Closes the connection if this object opened it; later {@link #get()} calls fail.
   *
   * @return completes when the connection is closed (at once when there is none)
   */
  CompletableFuture<Void> close() {
    closed = true;
    CompletableFuture<C> f = current.getAndSet(null);
    if (f == null || f.isCompletedExceptionally()) {
      return CompletableFuture.completedFuture(null);
    }
    return f.thenCompose(closer).exceptionally(t -> null);
  }
}
