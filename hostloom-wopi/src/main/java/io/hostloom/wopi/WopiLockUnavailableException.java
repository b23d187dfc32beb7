package io.hostloom.wopi;

import io.hostloom.locking.LockFailureKind;
import io.hostloom.locking.spi.LockBackendException;
import java.util.Objects;

/**
 * A WOPI lock operation got no answer from the lock backend, or the waiting thread was interrupted.
 * Not a conflict: conflicts are {@link WopiLockResult} values. A WOPI host maps it to {@code 503
 * Service Unavailable} (or {@code 500}); the WOPI client retries.
 *
 * <p>{@link #kind()} says whether the command may have been applied: {@code UNAVAILABLE} means it
 * cannot have reached the backend; {@code TIMEOUT} and {@code OTHER} mean it may have (an add may
 * have locked the file). Interruption is reported as {@code TIMEOUT}, with the interrupt flag set
 * again: the command stays in flight. The message names the operation, the file and the kind, never
 * lock ids.
 */
public final class WopiLockUnavailableException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final LockFailureKind kind;
  private final String operation;
  private final String fileId;

  private WopiLockUnavailableException(
      LockFailureKind kind, String operation, String fileId, String detail, Throwable cause) {
    super(
        "WOPI lock "
            + operation
            + " of file '"
            + fileId
            + "' failed ("
            + kind
            + "): "
            + detail
            + " on the lock backend",
        cause);
    this.kind = Objects.requireNonNull(kind, "kind");
    this.operation = operation;
    this.fileId = fileId;
  }

  /**
   * The backend call failed with {@code cause}; the kind comes from a {@link LockBackendException}.
   */
  public static WopiLockUnavailableException backendFailed(
      String operation, String fileId, Throwable cause) {
    LockFailureKind kind =
        cause instanceof LockBackendException lbe ? lbe.kind() : LockFailureKind.OTHER;
    String detail = cause == null ? "no answer" : String.valueOf(cause.getMessage());
    return new WopiLockUnavailableException(kind, operation, fileId, detail, cause);
  }

  /** The thread was interrupted while waiting for the backend; the command may still be applied. */
  public static WopiLockUnavailableException interrupted(
      String operation, String fileId, InterruptedException cause) {
    return new WopiLockUnavailableException(
        LockFailureKind.TIMEOUT,
        operation,
        fileId,
        "interrupted while waiting for an answer",
        cause);
  }

  /** Whether the command may have been applied, as the backend classified its failure. */
  public LockFailureKind kind() {
    return kind;
  }

  /** The provider operation: {@code getLock}, {@code add}, {@code refresh}, ... */
  public String operation() {
    return operation;
  }

  public String fileId() {
    return fileId;
  }
}
