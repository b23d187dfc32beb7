package io.hostloom.scheduling;

import java.time.Instant;
import java.util.Optional;

/** A schedule driven by an {@link ExclusiveScheduler}: its state, and a way to stop it. */
public interface ScheduleHandle {
  String name();

  /** When the next occurrence is due; empty once cancelled or when the trigger has no more. */
  Optional<Instant> nextDue();

  /** The schedule's state in this process, with {@link #nextDue()}. */
  ScheduleState state();

  /**
   * Stops the schedule: no occurrence starts after this call; a run in progress is not interrupted.
   * Idempotent.
   */
  void cancel();

  boolean isCancelled();
}
