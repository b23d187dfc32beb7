package io.hostloom.scheduling;

/**
 * The work of one occurrence, run while this process holds the schedule's claim.
 *
 * <p>The job may throw anything; that ends the run as {@link RunOutcome#FAILED} (or {@link
 * RunOutcome#TIMED_OUT}, {@link RunOutcome#CLAIM_LOST}, {@link RunOutcome#CANCELLED} when the guard
 * interrupted it or the claim went away). Blocking jobs should react to interruption: it is how the
 * guard stops a job on timeout and, with {@link io.hostloom.locking.OnLost#CANCEL}, on a lost
 * claim.
 */
@FunctionalInterface
public interface ScheduledJob {
  void run(ScheduleClaim claim) throws Exception;

  /** A job that does not need its claim. */
  static ScheduledJob of(Runnable runnable) {
    return claim -> runnable.run();
  }
}
