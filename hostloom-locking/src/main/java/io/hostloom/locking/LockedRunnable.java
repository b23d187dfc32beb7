package io.hostloom.locking;

/**
 * An action without a result run while a lock is held; see {@link LockedCallable}.
 *
 * @param <X> the checked exception the action may throw
 */
@FunctionalInterface
public interface LockedRunnable<X extends Exception> {
  void run(LockHandle handle) throws X;
}
