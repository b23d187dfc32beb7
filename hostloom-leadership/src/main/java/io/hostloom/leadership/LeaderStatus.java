package io.hostloom.leadership;

/** Where an elector is in its life. */
public enum LeaderStatus {
  /** Built, not yet started: makes no attempts. */
  NOT_STARTED,
  /** Started and not leading: attempts every retry interval plus jitter. */
  FOLLOWER,
  /** Holds the role's lease and renews it. */
  LEADER,
  /** Stopped for good. */
  STOPPED
}
