package io.hostloom.locking.semaphore;

/** An action run while holding permits; what it throws propagates unchanged. */
@FunctionalInterface
public interface PermitsCallable<T, X extends Exception> {
  T call(Permits permits) throws X;
}
