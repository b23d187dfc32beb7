package io.hostloom.locking.semaphore;

import io.hostloom.locking.LockHandle;
import io.hostloom.locking.LossReason;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * The permits one acquisition got: one or more {@link Permit}s, each a kernel lease on its own slot
 * with its own owner token and fencing token. Single use; thread-safe. Close it
 * (try-with-resources) to release every permit.
 *
 * <p><b>Loss.</b> Each permit is a {@link LockHandle} and is lost exactly as a lock handle is (its
 * lease ran out on the local clock, an extension or the release was refused): see {@link
 * LockHandle}. The grant is held while <em>every</em> permit is held; {@link #lost()} completes
 * with the first permit's loss. Permits are never replaced: a lost permit stays lost, the others
 * stay held until closed.
 */
public interface Permits extends AutoCloseable {

  /** The semaphore name, without the namespace prefix. */
  String name();

  /** The permits, in slot order; as many as were asked for. */
  List<Permit> permits();

  /** {@code true} while every permit is held ({@link LockHandle#isHeld()}); non-blocking. */
  boolean isHeld();

  /**
   * Completes with the reason of the first permit lost; never completes on a normal release. Each
   * call returns a new dependent future. Callbacks run on the thread that detected the loss (a
   * timer or backend I/O thread) and must not block.
   */
  CompletableFuture<LossReason> lost();

  /**
   * {@code false} in single-instance mode ({@code hostloom.locking.enabled=false}), whose permits
   * are placeholders that hold nothing.
   */
  boolean isCoordinated();

  /**
   * Releases every permit (one owner-checked release per permit, sent together) and waits for the
   * answers, each bounded by the backend's command timeout. Idempotent; never throws. An interrupt
   * ends the wait (the flag is set again) while the releases complete in the background.
   */
  @Override
  void close();
}
