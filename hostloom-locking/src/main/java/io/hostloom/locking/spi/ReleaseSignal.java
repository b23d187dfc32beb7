package io.hostloom.locking.spi;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;

/**
 * Optional capability of a {@link LockBackend}: a wake-up when a key may have become free, so a
 * contended acquisition retries at once instead of sleeping its whole retry step. The kernel uses
 * it when the backend object passed to it implements this interface (and {@code
 * hostloom.locking.wake-on-release} is on); polling on the retry policy stays the fallback.
 *
 * <p><b>A hint, never a grant.</b> A signal only says that a release, replace or delete of the key
 * was announced. The waiter must still acquire, and may lose to another waiter. Exclusion never
 * depends on signals: they may be spurious (a release followed at once by another grant, a
 * reconnect after which missed announcements cannot be ruled out) and they may be missed (a lease
 * that simply <em>expires</em> announces nothing; the announcement channel may be down; releases by
 * processes that do not announce are not seen). A waiter therefore always bounds its wait by its
 * ordinary retry step.
 *
 * <p><b>Who is woken.</b> An announced release wakes at least the oldest pending wait of its key in
 * each instance. A backend may wake every wait of the key, or only the oldest (then one release
 * costs one retry per process instead of one per waiter, with no thundering herd): the woken
 * waiter's own release, or the others' retry step, moves the rest on. Each backend's README says
 * which it does.
 *
 * <p><b>Subscribe first.</b> Call {@code awaitRelease} <em>before</em> the acquire attempt it
 * follows up on, so a release between the refused attempt and the start of the wait is not missed.
 * End the wait when the attempt is granted or the wait ends for another reason, by completing the
 * future with {@code false} (or cancelling it); that frees whatever the backend keeps for the wait:
 *
 * <pre>{@code
 * CompletableFuture<Boolean> released = signal.awaitRelease(key, retryStep);
 * AcquireOutcome outcome = backend.acquire(key, owner, data, lease).join();
 * if (outcome.granted()) {
 *   released.complete(false); // ends the wait; cheaper than cancel(), which builds an exception
 * } else {
 *   released.join(); // true: retry now; false: the step passed, retry as usual
 * }
 * }</pre>
 *
 * <p><b>Threads.</b> The future completes on a backend thread (a listener, an I/O event loop, a
 * timer, or the thread whose call announced the release): dependent stages must not block.
 */
public interface ReleaseSignal {

  /**
   * Starts waiting for a release of {@code key}. Never blocks and never sends a lock command.
   *
   * <p>The returned future completes with {@code true} as soon as {@code key} may have been
   * released (a release, replace or delete of it was announced after this call began, and this wait
   * is one the backend wakes for it, see above): retry now. It completes with {@code false} when
   * {@code maxWait} passed without a signal, when signals are off or unavailable, or when the
   * backend was closed: poll as usual. It never completes exceptionally by itself. A caller ends
   * the wait early by completing the future with {@code false} or by {@link
   * CompletableFuture#cancel cancelling} it; either frees its resources, so backends release them
   * on <em>any</em> completion (e.g. {@code whenComplete}). Callers must end (or let {@code
   * maxWait} end) every wait they start.
   *
   * @param key the key exactly as passed to {@link LockBackend#acquire}
   * @param maxWait the longest wait, measured by the backend's timer; zero completes with {@code
   *     false} at once
   * @return a future of "may have been released"; completes on a backend thread
   * @throws NullPointerException when an argument is null
   * @throws IllegalArgumentException when {@code key} is empty or {@code maxWait} is negative
   */
  CompletableFuture<Boolean> awaitRelease(String key, Duration maxWait);
}
