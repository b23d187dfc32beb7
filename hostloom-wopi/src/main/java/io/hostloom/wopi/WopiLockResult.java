package io.hostloom.wopi;

import java.util.Objects;
import java.util.Optional;

/**
 * The answer to a lock mutation of {@link WopiLockProvider}: success, or failure together with the
 * lock that is on the file instead, so a WOPI host can answer {@code 409 Conflict} with {@code
 * X-WOPI-Lock} set to the current lock id without another call.
 *
 * <p>On failure, {@link #currentLock()} is the live lock the failing operation met (for a lost
 * race: the winner's lock), or empty when the file was not locked (never locked, removed or
 * expired). It is always empty on success.
 *
 * @param success whether the operation took effect
 * @param currentLock on failure, the lock found instead, or empty when the file is not locked
 */
public record WopiLockResult(boolean success, Optional<WopiLockInfo> currentLock) {
  private static final WopiLockResult SUCCESS = new WopiLockResult(true, Optional.empty());

  public WopiLockResult {
    Objects.requireNonNull(currentLock, "currentLock");
    if (success && currentLock.isPresent()) {
      throw new IllegalArgumentException("a success carries no current lock");
    }
  }

  /** The operation took effect. */
  public static WopiLockResult succeeded() {
    return SUCCESS;
  }

  /** The operation did not take effect; {@code currentLock} is what is on the file instead. */
  public static WopiLockResult failed(Optional<WopiLockInfo> currentLock) {
    return new WopiLockResult(false, currentLock);
  }

  /**
   * The value for a 409's {@code X-WOPI-Lock} header: the current lock id, or {@code ""} when the
   * file is not locked or on success.
   */
  public String currentLockIdOrEmpty() {
    return currentLock.map(WopiLockInfo::lockId).orElse("");
  }
}
