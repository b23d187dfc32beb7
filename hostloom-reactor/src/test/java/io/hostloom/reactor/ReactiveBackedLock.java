package io.hostloom.reactor;

import io.hostloom.locking.DistributedLock;
import io.hostloom.locking.LockHandle;
import io.hostloom.locking.LockInterruptedException;
import io.hostloom.locking.LockOptions;
import io.hostloom.locking.LockedAsyncFunction;
import io.hostloom.locking.LockedCallable;
import io.hostloom.locking.OnLost;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import reactor.core.Disposable;
import reactor.core.Disposables;
import reactor.core.Exceptions;
import reactor.core.publisher.Mono;

/**
 * A {@link DistributedLock} whose every acquisition goes through {@link ReactiveLock}: the blocking
 * forms {@code block()} on the calling (test) thread, the async forms are the reactive ones turned
 * into futures; so the kernel conformance suite checks the reactive forms.
 */
final class ReactiveBackedLock implements DistributedLock {
  private final ReactiveLock reactive;

  ReactiveBackedLock(ReactiveLock reactive) {
    this.reactive = reactive;
  }

  @Override
  public boolean isCoordinated() {
    return reactive.lock().isCoordinated();
  }

  @Override
  public <T, X extends Exception> T executeWithLock(
      String key, LockOptions options, LockedCallable<T, X> action) throws X {
    LockHandle h = block(key, reactive.acquire(key, options));
    Thread caller = Thread.currentThread();
    AtomicBoolean interrupted = new AtomicBoolean();
    Disposable onLoss =
        options.onLost() == OnLost.CANCEL
            ? ReactiveLock.lost(h)
                .subscribe(
                    r -> {
                      interrupted.set(true);
                      caller.interrupt();
                    })
            : Disposables.disposed();
    try {
      return action.call(h);
    } finally {
      onLoss.dispose();
      if (interrupted.get()) {
        Thread.interrupted(); // our interrupt must not leak into the caller's later code
      }
      ReactiveLock.release(h).block();
    }
  }

  @Override
  public LockHandle acquire(String key, LockOptions options) {
    return block(key, reactive.acquire(key, options));
  }

  @Override
  public Optional<LockHandle> tryAcquire(String key, LockOptions options) {
    return Optional.ofNullable(block(key, reactive.tryAcquire(key, options)));
  }

  @Override
  public CompletableFuture<LockHandle> acquireAsync(String key, LockOptions options) {
    return reactive.acquire(key, options).toFuture();
  }

  @Override
  public CompletableFuture<Optional<LockHandle>> tryAcquireAsync(String key, LockOptions options) {
    return reactive
        .tryAcquire(key, options)
        .map(Optional::of)
        .defaultIfEmpty(Optional.empty())
        .toFuture();
  }

  @Override
  public <T> CompletableFuture<T> executeWithLockAsync(
      String key, LockOptions options, LockedAsyncFunction<T> action) {
    return reactive
        .withLock(key, options, h -> Mono.fromFuture(() -> action.apply(h).toCompletableFuture()))
        .toFuture();
  }

  @Override
  public void close() {
    reactive.lock().close();
  }

  /** {@code block()} with the blocking API's interruption contract. */
  private static <T> T block(String key, Mono<T> mono) {
    try {
      return mono.block();
    } catch (RuntimeException e) {
      if (Exceptions.unwrap(e) instanceof InterruptedException) {
        Thread.currentThread().interrupt();
        throw LockInterruptedException.acquiring(key);
      }
      throw e;
    }
  }
}
