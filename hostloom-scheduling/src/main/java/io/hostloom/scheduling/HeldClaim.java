package io.hostloom.scheduling;

import io.hostloom.locking.LossReason;
import java.time.Instant;
import java.util.concurrent.CompletableFuture;

/** One granted claim as the guard and {@link ScheduleClaim} see it, whatever granted it. */
interface HeldClaim {
  long fencingToken();

  boolean isHeld();

  Instant leaseEnd();

  /** Completes when the claim ends without being released; a new dependent future per call. */
  CompletableFuture<LossReason> lost();

  boolean isCoordinated();

  /**
   * Ends the claim: at once, or, for a lock claim with a minimum hold, at the end of that hold (the
   * lock keeps the lease until then).
   */
  void release();
}
