package io.hostloom.leadership;

import java.util.Locale;

/** Why leadership of a role changed for one elector. */
public enum ChangeType {
  /** This elector became leader; the change carries the new term. */
  ACQUIRED,
  /**
   * Leadership ended without being asked: a renewal was refused, renewals failed until the lease
   * ran out, or the lock reported the lease lost. Another instance may already lead.
   */
  LOST,
  /** The elector stepped down by {@link LeaderElection#resign()} and stays a candidate. */
  RESIGNED,
  /** The elector was stopped while leading; it never runs again. */
  STOPPED;

  /** Lower-case name, as used in the {@code reason} metric tag. */
  public String tagValue() {
    return name().toLowerCase(Locale.ROOT);
  }
}
