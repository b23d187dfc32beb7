package io.hostloom.scheduling;

/**
 * Observes the runs of schedules, for metrics and traces ({@code ScheduleMetrics} in {@code
 * io.hostloom.micrometer} in hostloom-micrometer implements it). {@link #NO_OP} by default.
 *
 * <p><b>Threads.</b> Both callbacks run on the thread that runs the occurrence, before the job
 * starts and after it ended (before a minimum hold ends); they must be short and must not block.
 *
 * <p><b>Exception safety.</b> What a callback throws is caught and logged (event 3406): it never
 * changes an outcome, never keeps a job from running and never keeps a claim from being released.
 */
public interface ScheduleListener {
  ScheduleListener NO_OP = new ScheduleListener() {};

  /** The claim was granted and the job is about to run. */
  default void runStarted(ScheduleClaim claim) {}

  /** An occurrence ended, whatever its outcome (skips and guard failures included). */
  default void runFinished(RunResult result) {}
}
