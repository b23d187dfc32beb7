package io.hostloom.scheduling;

import io.hostloom.locking.LockHandle;
import io.hostloom.locking.LossReason;
import java.time.Instant;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;

/**
 * This process's claim on one occurrence of a schedule, handed to the job. Thread-safe. The guard
 * owns it: the job must not release it; it ends when the guard releases it after the run (or after
 * the minimum hold).
 *
 * <p><b>The claim can end while the job runs</b> (its lease ran out, an extension was refused):
 * {@link #lost()} completes, {@link #isHeld()} turns false and the run ends as {@link
 * RunOutcome#CLAIM_LOST}. Pass {@link #fencingToken()} with every write the job makes so the
 * resource rejects the writes of a holder that was replaced.
 */
public final class ScheduleClaim {
  private final String schedule;
  private final Instant occurrence;
  private final LockHandle handle;

  ScheduleClaim(String schedule, Instant occurrence, LockHandle handle) {
    this.schedule = schedule;
    this.occurrence = occurrence;
    this.handle = Objects.requireNonNull(handle, "handle");
  }

  /** The schedule's name. */
  public String schedule() {
    return schedule;
  }

  /** The instant the occurrence was due. */
  public Instant occurrence() {
    return occurrence;
  }

  /**
   * The claim's fencing token: it strictly increases with every claim of the schedule (see the
   * backend's README for when that holds); {@code 0} when locking is disabled.
   */
  public long fencingToken() {
    return handle.fencingToken();
  }

  /** {@code true} until the claim is lost or released; reads the local clock, never blocks. */
  public boolean isHeld() {
    return handle.isHeld();
  }

  /** The local estimate of when the claim's lease ends. */
  public Instant leaseEnd() {
    return handle.leaseEnd();
  }

  /**
   * Completes with the reason when the claim is lost; never on a normal release. A new dependent
   * future per call. Callbacks run on a timer or backend thread and must not block.
   */
  public CompletableFuture<LossReason> lost() {
    return handle.lost();
  }

  /** {@code false} when locking is disabled (single-instance mode): the claim guards nothing. */
  public boolean isCoordinated() {
    return handle.isCoordinated();
  }

  @Override
  public String toString() {
    return "ScheduleClaim[" + schedule + " @ " + occurrence + ", token=" + fencingToken() + "]";
  }
}
