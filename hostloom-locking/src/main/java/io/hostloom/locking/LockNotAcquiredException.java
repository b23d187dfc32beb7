package io.hostloom.locking;

import java.time.Duration;

/**
 * Another owner held the key for every attempt the retry policy and {@code maxWait} allowed (also
 * thrown when {@code maxWait} ran out while a backend reply was still outstanding). Nothing is held
 * for the caller when this is thrown.
 */
public final class LockNotAcquiredException extends LockException {
  private static final long serialVersionUID = 1L;

  private final int attempts;
  private final Duration waited;

  private LockNotAcquiredException(String key, int attempts, Duration waited) {
    super(
        key,
        "lock '"
            + key
            + "' not acquired: held by another owner after "
            + attempts
            + (attempts == 1 ? " attempt in " : " attempts in ")
            + ms(waited.toNanos()),
        null);
    this.attempts = attempts;
    this.waited = waited;
  }

  public static LockNotAcquiredException of(String key, int attempts, Duration waited) {
    return new LockNotAcquiredException(key, attempts, waited);
  }

  /** Backend calls sent for this acquisition, including one whose reply was still outstanding. */
  public int attempts() {
    return attempts;
  }

  /** Time from the call to the end of the wait, on the lock's clock. */
  public Duration waited() {
    return waited;
  }
}
