package io.hostloom.scheduling;

import java.util.Locale;

/** How one occurrence of a schedule ended in this process. */
public enum RunOutcome {
  /** The job ran under the claim and returned normally, the claim held to the end. */
  SUCCEEDED,
  /** The job ran under the claim and threw. */
  FAILED,
  /** The job ran past the schedule's timeout and was interrupted. */
  TIMED_OUT,
  /**
   * The run was interrupted from outside (executor shutdown, a cancelled future) before or while
   * the job ran.
   */
  CANCELLED,
  /**
   * The claim was lost while the job ran (lease expired, extension refused): another instance may
   * have started the same occurrence. Takes precedence over what the job returned.
   */
  CLAIM_LOST,
  /**
   * Not run: another instance holds the claim, or the previous run of this schedule still runs in
   * this process. Never a failure.
   */
  SKIPPED,
  /**
   * Not run: the lock backend failed, so nothing could say whether another instance runs the
   * occurrence. The job never runs on a failed claim.
   */
  GUARD_FAILED;

  /** Lower-case name, as used in the {@code outcome} metric tag. */
  public String tagValue() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** {@code true} when the job started under a claim (every outcome but skipped, guard failed). */
  public boolean jobStarted() {
    return this != SKIPPED && this != GUARD_FAILED;
  }
}
