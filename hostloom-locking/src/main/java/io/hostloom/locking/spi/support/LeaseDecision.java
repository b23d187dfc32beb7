package io.hostloom.locking.spi.support;

/**
 * What a backend does for one operation on one key, decided by {@link LeaseRules} from the key's
 * current record. Only the first four write; the rest answer with what was read.
 */
public enum LeaseDecision {
  /** Acquire of a free or expired key: store the caller's claim with a new fencing token. */
  GRANT_NEW_TOKEN(true),
  /**
   * Acquire or extend by the live owner: set expiry to now + lease, keep the fencing token and the
   * data.
   */
  EXTEND_SAME_TOKEN(true),
  /** Release by the live owner: remove the record. */
  RELEASE(true),
  /** Replace of the live owner's lease: store the new owner and data with a new fencing token. */
  REPLACE_NEW_TOKEN(true),
  /** Acquire of a key another owner holds, or read of a live key: answer with its record. */
  HELD(false),
  /** Extend, release or replace of a free or expired key (or read of one): answer absent. */
  REFUSED_ABSENT(false),
  /** Extend, release or replace of another owner's live lease: answer with its record. */
  REFUSED_OTHER_OWNER(false);

  private final boolean writes;

  LeaseDecision(boolean writes) {
    this.writes = writes;
  }

  /** Whether the backend must change the record (conditionally on what it read). */
  public boolean writes() {
    return writes;
  }
}
