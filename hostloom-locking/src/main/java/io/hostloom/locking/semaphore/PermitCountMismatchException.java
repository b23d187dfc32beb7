package io.hostloom.locking.semaphore;

/**
 * An acquisition met a slot of its semaphore held by a caller that uses another permit count for
 * the same name. Nothing is held for the caller when this is thrown. A configuration error, not
 * contention: it is never retried.
 */
public final class PermitCountMismatchException extends IllegalStateException {
  private static final long serialVersionUID = 1L;

  private final String name;
  private final int permits;
  private final int otherPermits;

  private PermitCountMismatchException(String name, int permits, int otherPermits) {
    super(
        "semaphore '"
            + name
            + "' is used with "
            + permits
            + " permits here but a holder of one of its slots uses "
            + otherPermits
            + ": every caller of one name must use the same permit count");
    this.name = name;
    this.permits = permits;
    this.otherPermits = otherPermits;
  }

  public static PermitCountMismatchException of(String name, int permits, int otherPermits) {
    return new PermitCountMismatchException(name, permits, otherPermits);
  }

  /** The semaphore name. */
  public String name() {
    return name;
  }

  /** The permit count of the caller that got this exception. */
  public int permits() {
    return permits;
  }

  /** The permit count stored with the slot's live grant. */
  public int otherPermits() {
    return otherPermits;
  }
}
