package io.hostloom.locking.semaphore;

/** The void form of {@link PermitsCallable}. */
@FunctionalInterface
public interface PermitsRunnable<X extends Exception> {
  void run(Permits permits) throws X;
}
