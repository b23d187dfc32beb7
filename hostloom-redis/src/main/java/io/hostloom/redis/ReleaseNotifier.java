package io.hostloom.redis;

import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * Optional capability of a lock backend: tells waiters that a key may have become free, so a
 * contended acquisition can retry at once instead of sleeping its whole retry step.
 *
 * <p><b>A hint, never a grant.</b> A notification only says that a release or replace of the key
 * was announced; the waiter must still acquire, and may lose to another waiter. Notifications can
 * be missed (the subscription is not yet active, the notification connection is down, the lease
 * simply expired, which announces nothing), so a waiter always bounds its wait by its ordinary
 * retry step: polling is the fallback, notifications only shorten it.
 *
 * <p><b>Threads.</b> Futures complete on the backend's I/O thread; callbacks attached to them must
 * not block.
 */
public interface ReleaseNotifier {

  /**
   * A future that completes normally when the next release or replace of {@code key} is announced.
   * It never completes exceptionally by itself and has no time limit: the caller bounds the wait
   * (e.g. races it against its own timer) and <b>must cancel it</b> when it stops waiting, which
   * ends the watch and frees its subscription. Does not block.
   *
   * @throws NullPointerException when {@code key} is null
   */
  CompletableFuture<Void> nextRelease(String key);

  /**
   * Waits without blocking for the next announced release of {@code key}, at most {@code max}
   * (measured by the JVM's clock).
   *
   * @return a future that completes with {@code true} when a release was announced, {@code false}
   *     when {@code max} passed first; it never completes exceptionally
   * @throws IllegalArgumentException when {@code max} is negative
   */
  default CompletableFuture<Boolean> awaitRelease(String key, Duration max) {
    Objects.requireNonNull(max, "max");
    if (max.isNegative()) {
      throw new IllegalArgumentException("max must not be negative but was " + max);
    }
    CompletableFuture<Void> next = nextRelease(key);
    CompletableFuture<Boolean> result = next.handle((v, t) -> t == null);
    result.completeOnTimeout(false, max.toNanos(), TimeUnit.NANOSECONDS);
    return result.whenComplete((v, t) -> next.cancel(false));
  }
}
