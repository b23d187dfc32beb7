package io.hostloom.wopi;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * What a WOPI host answers for a lock operation, as decided by {@link WopiLockProtocol}: a status
 * and the lock headers. For the lock checks (PutFile, RenameFile, DeleteFile, PutRelativeFile)
 * status {@code 200} means "proceed with the file operation"; any other status is the response.
 *
 * @param status {@link #OK}, {@link #BAD_REQUEST} or {@link #CONFLICT}
 * @param lock the {@code X-WOPI-Lock} response header, when the response carries one (every 409,
 *     and GET_LOCK's 200); {@code ""} stands for "not locked" or "not representable"
 * @param failureReason the {@code X-WOPI-LockFailureReason} header, for logs only; never contains
 *     lock ids
 */
public record WopiLockResponse(int status, Optional<String> lock, Optional<String> failureReason) {
  public static final int OK = 200;
  public static final int BAD_REQUEST = 400;
  public static final int CONFLICT = 409;

  public WopiLockResponse {
    Objects.requireNonNull(lock, "lock");
    Objects.requireNonNull(failureReason, "failureReason");
    if (status != OK && status != BAD_REQUEST && status != CONFLICT) {
      throw new IllegalArgumentException("status must be 200, 400 or 409 but was " + status);
    }
    if (status == CONFLICT && lock.isEmpty()) {
      throw new IllegalArgumentException("a 409 must carry X-WOPI-Lock");
    }
  }

  static WopiLockResponse ok() {
    return new WopiLockResponse(OK, Optional.empty(), Optional.empty());
  }

  static WopiLockResponse okWithLock(String lock) {
    return new WopiLockResponse(OK, Optional.of(lock), Optional.empty());
  }

  static WopiLockResponse badRequest(String reason) {
    return new WopiLockResponse(BAD_REQUEST, Optional.empty(), Optional.of(reason));
  }

  static WopiLockResponse conflict(String lock, String reason) {
    return new WopiLockResponse(CONFLICT, Optional.of(lock), Optional.of(reason));
  }

  /** Whether the status is {@code 200}: the lock operation succeeded or the file may be changed. */
  public boolean isOk() {
    return status == OK;
  }

  /** Hides the {@code X-WOPI-Lock} value (a client's lock id); shows its length. */
  @Override
  public String toString() {
    return "WopiLockResponse[status="
        + status
        + ", lockLength="
        + lock.map(l -> String.valueOf(l.length())).orElse("none")
        + ", failureReason="
        + failureReason.orElse("none")
        + "]";
  }

  /** The response headers to set, by name, in a stable order. */
  public Map<String, String> headers() {
    Map<String, String> h = new LinkedHashMap<>();
    lock.ifPresent(v -> h.put(WopiLockProtocol.LOCK_HEADER, v));
    failureReason.ifPresent(v -> h.put(WopiLockProtocol.LOCK_FAILURE_REASON_HEADER, v));
    return h;
  }
}
