package io.hostloom.locking;

/**
 * The calling thread already holds the key through {@link DistributedLock#executeWithLock} and
 * {@link LockingOptions#detectReentrancy()} is on. Thrown before any backend call; the lock is not
 * reentrant because a second acquisition by the same owner would silently share one lease.
 */
public final class LockReentrancyException extends LockException {
  private static final long serialVersionUID = 1L;

  private LockReentrancyException(String key) {
    super(
        key,
        "lock '"
            + key
            + "' is already held by this thread's executeWithLock; the lock is not reentrant",
        null);
  }

  public static LockReentrancyException of(String key) {
    return new LockReentrancyException(key);
  }
}
