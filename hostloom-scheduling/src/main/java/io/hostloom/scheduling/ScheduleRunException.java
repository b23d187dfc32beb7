package io.hostloom.scheduling;

/**
 * A run that failed with a checked exception (or timed out without one), rethrown by {@link
 * RunResult#throwIfFailed()}. Unchecked; the message names the schedule, the occurrence and the
 * outcome.
 */
public final class ScheduleRunException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final transient RunResult result;

  private ScheduleRunException(RunResult result) {
    super(
        "schedule '"
            + result.schedule()
            + "' occurrence "
            + result.occurrence()
            + " ended "
            + result.outcome(),
        result.failure().orElse(null));
    this.result = result;
  }

  public static ScheduleRunException of(RunResult result) {
    return new ScheduleRunException(result);
  }

  /** The run; {@code null} after deserialization. */
  public RunResult result() {
    return result;
  }
}
