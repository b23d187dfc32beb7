package io.hostloom.cli;

/**
 * The exit codes of {@code hostloom} itself. Every other code is the command's own: {@code lock}
 * and {@code leader} pass the command's exit status through unchanged ({@code 128 + n} when it was
 * ended by signal {@code n}, as a shell reports it). The values follow {@code sysexits.h} where one
 * fits.
 */
public final class ExitCodes {
  /** Success ({@code status}, {@code wopi}, {@code completion}, {@code --help}). */
  public static final int OK = 0;

  /**
   * {@code wopi unlock}: the file is not locked, or locked with another lock id (WOPI's 409); the
   * current lock id is printed.
   */
  public static final int CONFLICT = 1;

  /** Bad input: an unknown option or scheme, a missing name, a negative duration (EX_USAGE). */
  public static final int USAGE = 64;

  /** The backend failed or could not be reached (EX_UNAVAILABLE). */
  public static final int UNAVAILABLE = 69;

  /** An unexpected error inside hostloom (EX_SOFTWARE). */
  public static final int SOFTWARE = 70;

  /**
   * The lock was busy: {@code --skip-if-busy}, or {@code --wait} ran out (EX_TEMPFAIL, "try again
   * later"), so a cron wrapper can tell a skipped run from a failed one. The command did not run.
   */
  public static final int BUSY = 75;

  /**
   * The lease (or the leadership, with {@code leader --once}) was lost while the command ran: the
   * command was sent SIGTERM, then SIGKILL after the grace period, whatever it exited with. Also
   * when the lease was lost during {@code lock --min-hold}, after the command ended.
   */
  public static final int LEASE_LOST = 76;

  /** The command could not be executed (found but not executable), as in a shell. */
  public static final int NOT_EXECUTABLE = 126;

  /** The command was not found, as in a shell. */
  public static final int NOT_FOUND = 127;

  private ExitCodes() {}
}
