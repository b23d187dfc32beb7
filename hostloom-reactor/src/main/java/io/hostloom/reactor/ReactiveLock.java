package io.hostloom.reactor;

import io.hostloom.locking.DistributedLock;
import io.hostloom.locking.LockHandle;
import io.hostloom.locking.LockOptions;
import io.hostloom.locking.LossReason;
import io.hostloom.locking.OnLost;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CancellationException;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import org.reactivestreams.Publisher;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * {@code Mono}/{@code Flux} forms of a {@link DistributedLock}, built only on its non-blocking
 * {@code *Async} methods: no method here, and no signal it emits, blocks a thread, so they are safe
 * on Reactor's non-blocking schedulers.
 *
 * <p><b>Laziness and errors.</b> Nothing is sent to the backend before subscription; each
 * subscription is a new attempt. Null arguments throw {@link NullPointerException} at once; every
 * other error of the blocking API (a bad key, a closed lock, reentrancy, {@code
 * LockNotAcquiredException}, {@code LockBackendUnavailableException}) is an {@code onError} signal.
 *
 * <p><b>Cancellation</b> is the kernel's rule for a cancelled future: cancelling a subscription
 * while it waits abandons the wait, a backend command already sent is not cancelled, and a grant
 * that arrives after the cancellation is released by the lock (one owner-checked release). A handle
 * that was granted just as the subscriber cancelled (and so was never delivered) is released too.
 *
 * <p><b>Threads.</b> Signals arrive on the thread that completes the kernel's future (a backend or
 * timer thread, or the subscribing thread when the answer is immediate). Never call the blocking
 * API (such as {@link LockHandle#close()}) there: on a backend's reply thread it would wait for its
 * own reply until the command timeout. Use {@link #release} or {@code publishOn} to move slow work.
 */
public final class ReactiveLock {
  private final DistributedLock lock;

  private ReactiveLock(DistributedLock lock) {
    this.lock = Objects.requireNonNull(lock, "lock");
  }

  /** The reactive forms of {@code lock}; closing the lock stays its owner's job. */
  public static ReactiveLock of(DistributedLock lock) {
    return new ReactiveLock(lock);
  }

  /** The lock these forms delegate to. */
  public DistributedLock lock() {
    return lock;
  }

  /** {@link #acquire(String, LockOptions)} with {@link LockOptions#DEFAULTS}. */
  public Mono<LockHandle> acquire(String key) {
    return acquire(key, LockOptions.DEFAULTS);
  }

  /**
   * Emits the handle when acquired within {@code options.maxWait()}; errors with {@code
   * LockNotAcquiredException} on contention past it. The subscriber owns the handle and closes it
   * (or uses {@link #withLock}).
   */
  public Mono<LockHandle> acquire(String key, LockOptions options) {
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(options, "options");
    return Mono.fromFuture(() -> lock.acquireAsync(key, options))
        .doOnDiscard(LockHandle.class, ReactiveLock::releaseUndelivered);
  }

  /** {@link #tryAcquire(String, LockOptions)} with {@link LockOptions#SKIP_IF_BUSY}. */
  public Mono<LockHandle> tryAcquire(String key) {
    return tryAcquire(key, LockOptions.SKIP_IF_BUSY);
  }

  /**
   * Emits the handle when acquired within {@code options.maxWait()}, completes empty when the key
   * stays held (contention is a value, as in {@link DistributedLock#tryAcquire}).
   */
  public Mono<LockHandle> tryAcquire(String key, LockOptions options) {
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(options, "options");
    return Mono.fromFuture(() -> lock.tryAcquireAsync(key, options))
        .doOnDiscard(Optional.class, ReactiveLock::releaseUndeliveredIfPresent)
        .flatMap(Mono::justOrEmpty);
  }

  /** {@link #withLock(String, LockOptions, Function)} with {@link LockOptions#DEFAULTS}. */
  public <T> Mono<T> withLock(String key, Function<? super LockHandle, ? extends Mono<T>> action) {
    return withLock(key, LockOptions.DEFAULTS, action);
  }

  /**
   * Acquires, subscribes to {@code action}'s publisher and releases the lock when that publisher
   * completes, errors or is cancelled ({@code Mono.usingWhen}); errors of the action propagate
   * unchanged. With {@link OnLost#CANCEL} a loss of the lease cancels the action and the result
   * errors with {@link CancellationException}; with {@link OnLost#OBSERVE} the action keeps
   * running. Cancelling while acquiring abandons the acquisition as {@link #acquire} does.
   */
  public <T> Mono<T> withLock(
      String key, LockOptions options, Function<? super LockHandle, ? extends Mono<T>> action) {
    Objects.requireNonNull(action, "action");
    return Mono.from(withLockMany(key, options, action));
  }

  /**
   * {@link #withLock(String, LockOptions, Function)} for an action that emits many values: the lock
   * is held until the action's publisher terminates or is cancelled.
   */
  public <T> Flux<T> withLockMany(
      String key,
      LockOptions options,
      Function<? super LockHandle, ? extends Publisher<T>> action) {
    Objects.requireNonNull(action, "action");
    boolean cancelOnLoss = options.onLost() == OnLost.CANCEL;
    return Flux.usingWhen(
        acquire(key, options),
        h -> cancelOnLoss ? cancelOnLoss(h, Flux.from(action.apply(h))) : action.apply(h),
        ReactiveLock::release,
        (h, e) -> release(h),
        ReactiveLock::release);
  }

  /**
   * Emits {@code true} when the lease was set to {@code lease} (from the moment the request is
   * sent), {@code false} when the handle is closed or lost, the backend refused or the call failed
   * ({@link LockHandle#extendAsync}). Cancelling before the extension is sent keeps it from being
   * sent; after that it only stops the wait.
   */
  public static Mono<Boolean> extend(LockHandle handle, Duration lease) {
    Objects.requireNonNull(handle, "handle");
    Objects.requireNonNull(lease, "lease");
    return Mono.fromFuture(() -> handle.extendAsync(lease));
  }

  /**
   * Emits why the handle's lease was lost; never completes for a handle released by its owner.
   * Cancelling the subscription does not affect the handle or other observers of {@link
   * LockHandle#lost()}.
   */
  public static Mono<LossReason> lost(LockHandle handle) {
    Objects.requireNonNull(handle, "handle");
    return Mono.fromFuture(handle::lost, true);
  }

  /** Releases the handle; completes when the backend answered, never errors. */
  public static Mono<Void> release(LockHandle handle) {
    Objects.requireNonNull(handle, "handle");
    // a release that was started runs to its end even if the subscriber goes away
    return Mono.fromFuture(handle::closeAsync, true);
  }

  private static <T> Flux<T> cancelOnLoss(LockHandle h, Flux<T> body) {
    AtomicReference<LossReason> lost = new AtomicReference<>();
    return body.takeUntilOther(lost(h).doOnNext(lost::set))
        .concatWith(
            Mono.defer(
                () -> {
                  LossReason r = lost.get();
                  return r == null
                      ? Mono.empty()
                      : Mono.error(
                          new CancellationException(
                              "lease of '" + h.key() + "' lost (" + r + "): action cancelled"));
                }));
  }

  private static void releaseUndeliveredIfPresent(Optional<?> granted) {
    granted.ifPresent(h -> releaseUndelivered((LockHandle) h));
  }

  private static void releaseUndelivered(LockHandle h) {
    var unused = h.closeAsync();
  }
}
