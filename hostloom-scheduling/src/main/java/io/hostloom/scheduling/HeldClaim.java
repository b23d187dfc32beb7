package io.hostloom.scheduling;

import io.hostloom.locking.LossReason;
import io.hostloom.locking.time.LockClock;
import java.time.Instant;
import java.util.concurrent.CompletableFuture;
import org.slf4j.Logger;

/** One granted claim as the guard and {@link ScheduleClaim} see it, whatever granted it. */
interface HeldClaim {
  long fencingToken();

  boolean isHeld();

  Instant leaseEnd();

  /** Completes when the claim ends without being released; a new dependent future per call. */
  CompletableFuture<LossReason> lost();

  boolean isCoordinated();

  /**
   * Starts keeping the claim alive while the job runs, if this kind of claim needs it.
   *
   * @return stops it; called once the job ended
   */
  Runnable keepAlive(
      String schedule, LockClock clock, ScheduleOptions options, long requestedNanos, Logger log);

  /** Ends the claim at once (a claim granted too late, or the end of a run). */
  void release();

  /** Ends the claim at the end of the minimum hold, or at once when that has passed. */
  void releaseAfterMinimumHold(LockClock clock, ScheduleOptions options, long requestedNanos);
}
