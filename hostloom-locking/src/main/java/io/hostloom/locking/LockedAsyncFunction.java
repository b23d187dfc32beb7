package io.hostloom.locking;

import java.util.concurrent.CompletionStage;

/**
 * An asynchronous action run while a lock is held: the lock is released when the returned stage
 * completes (normally or not). An exception thrown by {@link #apply} itself counts as a failed
 * stage.
 *
 * @param <T> the result
 */
@FunctionalInterface
public interface LockedAsyncFunction<T> {
  CompletionStage<T> apply(LockHandle handle);
}
