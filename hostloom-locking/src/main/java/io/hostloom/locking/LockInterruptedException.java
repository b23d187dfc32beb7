package io.hostloom.locking;

/**
 * A blocking call was interrupted while it waited. The wait is abandoned (never the backend command
 * already sent: a grant that arrives later is released by the lock), the thread's interrupt flag is
 * set again, and nothing is held for the caller.
 */
public final class LockInterruptedException extends LockException {
  private static final long serialVersionUID = 1L;

  private LockInterruptedException(String key, String what) {
    super(key, "interrupted while " + what + " lock '" + key + "'", null);
  }

  public static LockInterruptedException acquiring(String key) {
    return new LockInterruptedException(key, "acquiring");
  }

  public static LockInterruptedException extending(String key) {
    return new LockInterruptedException(key, "extending");
  }
}
