package io.hostloom.locking.spi.support;

import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;

/**
 * The failure a backend classifies, out of the wrappers asynchronous code adds around it: a client
 * library's future fails with the library's exception inside {@link CompletionException}s and
 * {@link ExecutionException}s, and the kind of a failure ({@code LockFailureKind}) is decided by
 * that exception, not by the wrappers.
 */
public final class AsyncFailures {
  private AsyncFailures() {}

  /**
   * {@code failure} without its {@link CompletionException} and {@link ExecutionException}
   * wrappers: the first cause that is neither, or the innermost wrapper when it has no cause.
   */
  public static Throwable unwrap(Throwable failure) {
    Throwable c = failure;
    while ((c instanceof CompletionException || c instanceof ExecutionException)
        && c.getCause() != null) {
      c = c.getCause();
    }
    return c;
  }
}
