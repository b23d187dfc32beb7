package io.hostloom.locking;

import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CompletableFuture;

/**
 * One acquisition of one key: a lease with an owner token only this handle knows. Single use;
 * thread-safe. Close it (try-with-resources) to release the lease.
 *
 * <p><b>The lease can end before you close it.</b> A handle is <em>lost</em> when its lease runs
 * out on the local clock (request time + lease, the round trip counted as spent lease), when the
 * backend refuses an extension, when an extension's reply arrives after the lease it asked for was
 * spent, or when the backend refuses the release of a still-held handle. A lost handle never
 * becomes held again. Loss is reported once: {@link #lost()} completes with the {@link LossReason},
 * {@link #isHeld()} turns false, log event 3102 and {@code hostloom.lock.lost}. A normal release
 * never completes {@link #lost()}.
 *
 * <p><b>Not lost:</b> a backend call that <em>fails</em> (timeout, connection error) is not a
 * refusal: a failed extension returns {@code false} and keeps the previous lease end, and a failed
 * release is logged (3104) while the backend keeps the lease until it expires.
 */
public interface LockHandle extends AutoCloseable {

  /** The consumer key, without the namespace prefix. */
  String key();

  /**
   * {@code true} until the lease is lost or the handle closed. Non-blocking; reads the local clock.
   * The disabled-mode placeholder always answers {@code true}.
   */
  boolean isHeld();

  /**
   * The local estimate of the lease end on the lock's wall clock: now + what is left of the lease.
   * {@link Instant#MAX} for the disabled-mode placeholder.
   */
  Instant leaseEnd();

  /**
   * A signal that completes with the reason when the lease is lost, and never completes on a normal
   * release. It stays readable after close. Each call returns a new dependent future: completing or
   * cancelling it affects only that copy, never the lock. Callbacks run on the thread that detected
   * the loss (a timer or backend I/O thread) and must not block.
   */
  CompletableFuture<LossReason> lost();

  /**
   * {@code false} for the disabled-mode placeholder, which is not a claim on anything shared: gate
   * exclusive work on it.
   */
  boolean isCoordinated();

  /**
   * The backend's fencing token for this grant: it strictly increases with every grant of the key
   * (see the backend's README for when that holds). Send it with every write the lock protects and
   * have the resource reject tokens lower than one it has seen. {@code 0} for the placeholder.
   */
  long fencingToken();

  /**
   * Sets the lease to {@code lease} (capped at max lease) from the moment the request is sent.
   * Blocks until the backend answers. Extensions of one handle run one at a time in call order,
   * automatic ones included, so an older reply never overwrites a later lease end.
   *
   * @return {@code true} when extended; {@code false} when the handle is closed or lost, the
   *     backend refused (the handle is then lost), or the backend call failed (logged as 3105; the
   *     lease end is unchanged and the handle stays held)
   * @throws IllegalArgumentException when {@code lease} is not positive, also on a lost handle
   * @throws LockInterruptedException when interrupted while waiting; the interrupt flag is set
   *     again. An extension still queued is then never sent; one already sent still updates the
   *     lease when its reply arrives.
   */
  boolean extend(Duration lease);

  /**
   * {@link #extend} without blocking. Cancelling the future before the extension is sent keeps it
   * from being sent; after that it only stops the wait.
   */
  CompletableFuture<Boolean> extendAsync(Duration lease);

  /**
   * Replaces the grant's {@linkplain LockOptions#minimumHold() minimum hold}: closing the handle
   * before {@code minimumHold} has passed from now keeps the lease until then (one owner-checked
   * extension to the remainder, capped at max lease, on the backend's clock), and {@link
   * Duration#ZERO} makes closing release at once. For adapters whose extension carries a new
   * minimum, such as ShedLock's {@code extend(lockAtMostFor, lockAtLeastFor)}. Never contacts the
   * backend and never blocks; does nothing once the handle is closed, and nothing in
   * single-instance mode, whose handles hold nothing.
   *
   * @throws IllegalArgumentException when {@code minimumHold} is negative
   */
  void holdAtLeast(Duration minimumHold);

  /**
   * Releases the lease with one owner-checked backend call and waits for its answer (bounded by the
   * backend's own command timeout). Idempotent; never throws. A failure is logged (3104); an
   * interrupt ends the wait (the flag is set again) while the release completes in the background.
   */
  @Override
  void close();

  /** {@link #close()} without blocking; the future never completes exceptionally. */
  CompletableFuture<Void> closeAsync();
}
