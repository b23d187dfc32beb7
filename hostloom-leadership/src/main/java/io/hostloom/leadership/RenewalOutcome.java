package io.hostloom.leadership;

import java.util.Locale;

/** How one renewal of a leader's lease ended. */
public enum RenewalOutcome {
  /** The backend extended the lease. */
  EXTENDED,
  /**
   * The backend refused (another owner, or the lease had expired there), or its answer came after
   * the lease it asked for was spent: leadership is lost.
   */
  REFUSED,
  /**
   * The call failed (timeout, connection error): the lease keeps its previous end, the leader stays
   * leader until that end unless a retry succeeds (the lock retries after half the time left).
   */
  FAILED;

  /** Lower-case name, as used in the {@code outcome} metric tag. */
  public String tagValue() {
    return name().toLowerCase(Locale.ROOT);
  }
}
