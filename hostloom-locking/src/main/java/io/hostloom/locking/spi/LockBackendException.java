package io.hostloom.locking.spi;

import io.hostloom.locking.LockFailureKind;
import java.util.Objects;

/**
 * The one failure a {@link LockBackend} reports: a backend call that did not produce an answer.
 * "Held by someone else" and "not the owner" are answers, never exceptions.
 *
 * <p>The message names the operation and the kind; it never contains owner tokens, lock data or
 * endpoints with credentials.
 */
public class LockBackendException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final LockFailureKind kind;

  public LockBackendException(LockFailureKind kind, String message) {
    this(kind, message, null);
  }

  public LockBackendException(LockFailureKind kind, String message, Throwable cause) {
    super(message, cause);
    this.kind = Objects.requireNonNull(kind, "kind");
  }

  /** What the failure means for a command that may or may not have been applied. */
  public LockFailureKind kind() {
    return kind;
  }

  public static LockBackendException unavailable(String message, Throwable cause) {
    return new LockBackendException(LockFailureKind.UNAVAILABLE, message, cause);
  }

  public static LockBackendException timeout(String message, Throwable cause) {
    return new LockBackendException(LockFailureKind.TIMEOUT, message, cause);
  }

  public static LockBackendException other(String message, Throwable cause) {
    return new LockBackendException(LockFailureKind.OTHER, message, cause);
  }
}
