package io.hostloom.wopi;

import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.LongSupplier;

/**
 * The WOPI lock rules, framework-neutral: given an operation, a file id and the request's lock
 * headers, performs the lock operation on a {@link WopiLockProvider} and returns the status and
 * headers the WOPI protocol requires. A servlet, Spring MVC or any other host copies the {@link
 * WopiLockResponse} onto its HTTP response.
 *
 * <h2>Rules</h2>
 *
 * <ul>
 *   <li>LOCK, REFRESH_LOCK, UNLOCK, UNLOCK_AND_RELOCK need a valid {@code X-WOPI-Lock} (and
 *       UNLOCK_AND_RELOCK a valid {@code X-WOPI-OldLock}): missing, blank (HTTP cannot carry
 *       leading or trailing spaces), longer than 1024 characters or not printable ASCII is {@code
 *       400}.
 *   <li>LOCK locks an unlocked file, refreshes a lock with an equal id, else {@code 409}. LOCK with
 *       {@code X-WOPI-OldLock} is UNLOCK_AND_RELOCK: an atomic swap when the old id matches.
 *   <li>REFRESH_LOCK, UNLOCK, UNLOCK_AND_RELOCK on an unlocked file or with a mismatching id is
 *       {@code 409}.
 *   <li>GET_LOCK is always {@code 200} with {@code X-WOPI-Lock} = the lock id or {@code ""}, unless
 *       the stored lock is not a representable WOPI lock id ({@code 409}, {@code ""}).
 *   <li>PutFile: locked with a mismatching or missing id is {@code 409}; unlocked proceeds only
 *       when the stored file is empty (create-new), else {@code 409} with {@code ""}. RenameFile:
 *       unlocked or matching proceeds, else {@code 409}. DeleteFile and a PutRelativeFile
 *       overwrite: any lock is {@code 409}, even the caller's. A check never takes a lock.
 *   <li>Every {@code 409} carries {@code X-WOPI-Lock}: the current lock id, or {@code ""} when the
 *       file is not locked or its lock is not representable; a {@code 200} carries it only for
 *       GET_LOCK. {@code X-WOPI-LockFailureReason} explains 400s and 409s, for logs.
 * </ul>
 *
 * <h2>Backend calls per request</h2>
 *
 * One backend operation per request, on success and on conflict. A {@code 409}'s {@code
 * X-WOPI-Lock} is the lock the backend refused with in that same atomic operation: the lock current
 * when the request was decided, never a later one. A lost race answers {@code 409} with the
 * winner's lock id. The lock checks read the lock once; the file operation that follows is not
 * atomic with the check (a lock taken in between is not seen), as with every WOPI host.
 *
 * <h2>Failures</h2>
 *
 * Backend failures and interruption throw {@link WopiLockUnavailableException} (map it to {@code
 * 503}); a null or empty file id throws {@link IllegalArgumentException} or {@link
 * NullPointerException}. Thread-safe.
 */
public final class WopiLockProtocol {
  public static final String LOCK_HEADER = "X-WOPI-Lock";
  public static final String OLD_LOCK_HEADER = "X-WOPI-OldLock";
  public static final String LOCK_FAILURE_REASON_HEADER = "X-WOPI-LockFailureReason";

  private final WopiLockProvider provider;

  public WopiLockProtocol(WopiLockProvider provider) {
    this.provider = Objects.requireNonNull(provider, "provider");
  }

  /**
   * Handles a lock operation other than {@link WopiLockOperation#PUT_FILE} (which needs the stored
   * file size: use {@link #handle(WopiLockOperation, String, Function, LongSupplier)}).
   *
   * @param requestHeaders looks up a request header by name (e.g. {@code request::getHeader});
   *     returns null when absent
   * @throws IllegalArgumentException for PUT_FILE, or an invalid file id
   */
  public WopiLockResponse handle(
      WopiLockOperation operation, String fileId, Function<String, String> requestHeaders) {
    return handle(
        operation,
        fileId,
        requestHeaders,
        () -> {
          throw new IllegalArgumentException("PUT_FILE needs the stored file size");
        });
  }

  /**
   * Handles a lock operation.
   *
   * @param requestHeaders looks up a request header by name (e.g. {@code request::getHeader});
   *     returns null when absent
   * @param storedFileSize the current size of the stored file, in bytes; called only for PUT_FILE
   *     on an unlocked file
   * @throws WopiLockUnavailableException when the lock backend failed or the thread was interrupted
   */
  public WopiLockResponse handle(
      WopiLockOperation operation,
      String fileId,
      Function<String, String> requestHeaders,
      LongSupplier storedFileSize) {
    Objects.requireNonNull(operation, "operation");
    Objects.requireNonNull(requestHeaders, "requestHeaders");
    Objects.requireNonNull(storedFileSize, "storedFileSize");
    String lock = requestHeaders.apply(LOCK_HEADER);
    return switch (operation) {
      case LOCK -> {
        String oldLock = requestHeaders.apply(OLD_LOCK_HEADER);
        yield oldLock == null ? lock(fileId, lock) : unlockAndRelock(fileId, lock, oldLock);
      }
      case UNLOCK_AND_RELOCK ->
          unlockAndRelock(fileId, lock, requestHeaders.apply(OLD_LOCK_HEADER));
      case GET_LOCK -> getLock(fileId);
      case REFRESH_LOCK -> refreshLock(fileId, lock);
      case UNLOCK -> unlock(fileId, lock);
      case PUT_FILE -> checkPutFile(fileId, lock, storedFileSize);
      case RENAME_FILE -> checkRenameFile(fileId, lock);
      case DELETE_FILE, PUT_RELATIVE_FILE -> checkNotLocked(fileId);
    };
  }

  /** LOCK without {@code X-WOPI-OldLock}: one acquire. */
  public WopiLockResponse lock(String fileId, String lock) {
    String invalid = invalidHeader(LOCK_HEADER, lock);
    if (invalid != null) {
      return WopiLockResponse.badRequest(invalid);
    }
    return respond(
        provider.add(fileId, lock), "Lock mismatch: the file is locked by another client");
  }

  /** LOCK with {@code X-WOPI-OldLock}: one replace. */
  public WopiLockResponse unlockAndRelock(String fileId, String lock, String oldLock) {
    String invalid = invalidHeader(LOCK_HEADER, lock);
    if (invalid == null) {
      invalid = invalidHeader(OLD_LOCK_HEADER, oldLock);
    }
    if (invalid != null) {
      return WopiLockResponse.badRequest(invalid);
    }
    return respond(
        provider.unlockAndRelock(fileId, lock, oldLock),
        "Lock mismatch: X-WOPI-OldLock does not match the current lock");
  }

  /** REFRESH_LOCK: one extend, also on conflict. */
  public WopiLockResponse refreshLock(String fileId, String lock) {
    String invalid = invalidHeader(LOCK_HEADER, lock);
    if (invalid != null) {
      return WopiLockResponse.badRequest(invalid);
    }
    return respond(
        provider.refresh(fileId, lock),
        "Lock mismatch: X-WOPI-Lock does not match the current lock");
  }

  /** UNLOCK: one release, also on conflict. */
  public WopiLockResponse unlock(String fileId, String lock) {
    String invalid = invalidHeader(LOCK_HEADER, lock);
    if (invalid != null) {
      return WopiLockResponse.badRequest(invalid);
    }
    return respond(
        provider.remove(fileId, lock),
        "Lock mismatch: X-WOPI-Lock does not match the current lock");
  }

  /** GET_LOCK: one read. */
  public WopiLockResponse getLock(String fileId) {
    Optional<WopiLockInfo> current = provider.getLock(fileId);
    if (current.isEmpty()) {
      return WopiLockResponse.okWithLock("");
    }
    String id = current.get().lockId();
    if (!WopiLockIds.isValid(id)) {
      return WopiLockResponse.conflict(
          "", "The file is locked by a lock that is not a WOPI lock id");
    }
    return WopiLockResponse.okWithLock(id);
  }

  /** The lock check before PutFile: one read. */
  public WopiLockResponse checkPutFile(String fileId, String lock, LongSupplier storedFileSize) {
    Objects.requireNonNull(storedFileSize, "storedFileSize");
    Optional<WopiLockInfo> current = provider.getLock(fileId);
    if (current.isPresent()) {
      return matches(current.get(), lock)
          ? WopiLockResponse.ok()
          : WopiLockResponse.conflict(
              headerValue(current), "Lock mismatch: the file is locked with another lock id");
    }
    long size = storedFileSize.getAsLong();
    return size == 0
        ? WopiLockResponse.ok()
        : WopiLockResponse.conflict(
            "", "File not locked: only an empty file may be written without a lock");
  }

  /** The lock check before RenameFile: one read. */
  public WopiLockResponse checkRenameFile(String fileId, String lock) {
    Optional<WopiLockInfo> current = provider.getLock(fileId);
    if (current.isEmpty() || matches(current.get(), lock)) {
      return WopiLockResponse.ok();
    }
    return WopiLockResponse.conflict(
        headerValue(current), "Lock mismatch: the file is locked with another lock id");
  }

  /** The lock check before DeleteFile or a PutRelativeFile overwrite: one read. */
  public WopiLockResponse checkNotLocked(String fileId) {
    Optional<WopiLockInfo> current = provider.getLock(fileId);
    if (current.isEmpty()) {
      return WopiLockResponse.ok();
    }
    return WopiLockResponse.conflict(headerValue(current), "The file is locked");
  }

  private WopiLockResponse respond(WopiLockResult result, String mismatchReason) {
    if (result.success()) {
      return WopiLockResponse.ok();
    }
    if (result.currentLock().isEmpty()) {
      return WopiLockResponse.conflict("", "File not locked");
    }
    return WopiLockResponse.conflict(headerValue(result.currentLock()), mismatchReason);
  }

  private boolean matches(WopiLockInfo current, String lock) {
    return WopiLockIds.isValid(lock)
        && WopiLockIds.isValid(current.lockId())
        && provider.comparer().areEqual(current.lockId(), lock);
  }

  /** The current lock id when representable as a WOPI lock id, else {@code ""} (rule 10). */
  private static String headerValue(Optional<WopiLockInfo> current) {
    return current.map(WopiLockInfo::lockId).filter(WopiLockIds::isValid).orElse("");
  }

  /** Why the header value is not a usable lock id, or null when it is. */
  private static String invalidHeader(String name, String value) {
    if (value == null) {
      return name + " header is required";
    }
    if (value.isBlank()) {
      return name + " header is empty";
    }
    String problem = WopiLockIds.problem(value);
    return problem == null
        ? null
        : name
            + " header must be 1 to "
            + WopiLockIds.MAX_LENGTH
            + " printable ASCII characters but "
            + problem;
  }
}
