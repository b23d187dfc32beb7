package io.hostloom.locking;

/**
 * An action run while a lock is held, returning a value. {@code X} lets a checked exception of the
 * action propagate unchanged through {@link DistributedLock#executeWithLock} without a {@code
 * throws Exception} on the API; a lambda that throws nothing infers {@code RuntimeException}.
 *
 * @param <T> the result
 * @param <X> the checked exception the action may throw
 */
@FunctionalInterface
public interface LockedCallable<T, X extends Exception> {
  /**
   * Runs the action. {@code handle} reports the lease ({@link LockHandle#isHeld()}, {@link
   * LockHandle#lost()}, {@link LockHandle#fencingToken()}) and may extend it; the caller of {@code
   * executeWithLock} closes it, the action must not.
   */
  T call(LockHandle handle) throws X;
}
