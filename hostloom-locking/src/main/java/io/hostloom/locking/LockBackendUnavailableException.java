package io.hostloom.locking;

import java.time.Duration;
import java.util.Objects;

/**
 * The backend failed during an acquisition (the {@linkplain #getCause() cause} is its exception),
 * or granted the lease only after it was already spent ({@link LockFailureKind#TIMEOUT}). The
 * acquisition stops at once, even with retry budget left; when the command may have been applied
 * ({@code TIMEOUT}, {@code OTHER}) the lock sends one owner-checked release in the background.
 */
public final class LockBackendUnavailableException extends LockException {
  private static final long serialVersionUID = 1L;

  private final int attempts;
  private final Duration waited;
  private final LockFailureKind kind;

  private LockBackendUnavailableException(
      String key, int attempts, Duration waited, LockFailureKind kind, Throwable cause) {
    super(
        key,
        "lock '"
            + key
            + "' not acquired: backend failed ("
            + kind
            + ") on attempt "
            + attempts
            + " after "
            + ms(waited.toNanos()),
        cause);
    this.attempts = attempts;
    this.waited = waited;
    this.kind = Objects.requireNonNull(kind, "kind");
  }

  public static LockBackendUnavailableException of(
      String key, int attempts, Duration waited, LockFailureKind kind, Throwable cause) {
    return new LockBackendUnavailableException(key, attempts, waited, kind, cause);
  }

  /** Backend calls sent, including the failing one. */
  public int attempts() {
    return attempts;
  }

  /** Time from the call to the failure, on the lock's clock. */
  public Duration waited() {
    return waited;
  }

  /** Whether the failing command can have been applied. */
  public LockFailureKind kind() {
    return kind;
  }
}
