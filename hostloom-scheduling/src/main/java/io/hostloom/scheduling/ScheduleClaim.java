package io.hostloom.scheduling;

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
 *
 * <p><b>Leader-only claims</b> ({@link LeaderScheduleGuard}) are the current term of a role's
 * leadership: the fencing token is the term, {@link #lost()} completes when that term ends (with
 * the lock's reason when the elector reports one, else {@link LossReason#EXPIRED}: resigned,
 * stopped), {@link #leaseEnd()} is {@link Instant#MAX} while the term lasts (the elector renews it)
 * and the instant it ended afterwards.
 */
public final class ScheduleClaim {
  private final String schedule;
  private final Instant occurrence;
  private final HeldClaim handle;

  ScheduleClaim(String schedule, Instant occurrence, HeldClaim handle) {
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
   * backend's README for when that holds); {@code 0} when locking is disabled. For a leader-only
   * claim: the leader's term (the fencing token of its grant).
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
