package io.hostloom.jdbc;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;

/**
 * Optional capability of a {@link io.hostloom.locking.spi.LockBackend}: a wake-up when a key may
 * have become free, so a waiting acquirer retries at once instead of at its next poll. It only
 * shortens waits; exclusion never depends on it, and the acquirer always confirms with a normal
 * acquire.
 *
 * <p><b>Usage.</b> Call {@code awaitRelease} <em>before</em> the acquire attempt it follows up on,
 * so a release that happens between the refused attempt and the wait is not missed; when the
 * attempt is refused, wait for the signal, then try again:
 *
 * <pre>{@code
 * CompletableFuture<Boolean> released = signal.awaitRelease(key, pollInterval);
 * AcquireOutcome outcome = backend.acquire(key, owner, data, lease).join();
 * if (!outcome.granted()) {
 *   released.join(); // then retry
 * } else {
 *   released.cancel(false);
 * }
 * }</pre>
 *
 * <p><b>Edges.</b> A lease that simply expires sends no signal, so {@code maxWait} should not
 * exceed the holder's remaining lease (from the refused acquire's holder record) or the caller's
 * poll interval. Signals may be spurious (a release followed at once by another grant, or a
 * reconnect of the listening connection after which missed releases cannot be ruled out). Only
 * releases made by backends that send signals are seen.
 *
 * <p><b>Threads.</b> The future completes on a backend thread (the listener or a timer): dependent
 * stages must not block.
 */
public interface BackendReleaseSignal {

  /**
   * A future that completes with {@code true} as soon as {@code key} may have been released (retry
   * now), or with {@code false} when {@code maxWait} passed without a signal, signals are off, or
   * the backend was closed (poll as usual). It never completes exceptionally and never blocks the
   * caller. Cancelling it stops the wait.
   *
   * @param maxWait the longest wait; zero completes with {@code false} at once
   * @throws NullPointerException when an argument is null
   * @throws IllegalArgumentException when {@code key} is empty or {@code maxWait} is negative
   */
  CompletableFuture<Boolean> awaitRelease(String key, Duration maxWait);
}
