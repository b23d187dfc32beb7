package io.hostloom.wopihost.web;

import io.hostloom.wopi.WopiLockOperation;
import io.hostloom.wopi.WopiLockProtocol;
import io.hostloom.wopi.WopiLockResponse;
import io.hostloom.wopihost.files.Document;
import jakarta.servlet.http.HttpServletRequest;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * A lock check made again just before a write commits, under the store's per-file write mutex
 * ({@code DocumentStore.write(id, content, recheck)}): a LOCK taken while the body was arriving
 * wins. Used once, by one request's thread.
 */
final class LockRecheck implements Predicate<Document> {
  private final WopiLockProtocol locks;
  private final WopiLockOperation op;
  private final HttpServletRequest request;
  private WopiLockResponse refused;

  LockRecheck(WopiLockProtocol locks, WopiLockOperation op, HttpServletRequest request) {
    this.locks = locks;
    this.op = op;
    this.request = request;
  }

  @Override
  public boolean test(Document current) {
    WopiLockResponse again = locks.handle(op, current.id(), request::getHeader, current::size);
    refused = again.isOk() ? null : again;
    return again.isOk();
  }

  /** The lock's refusal when the check failed; empty when it passed or did not run. */
  Optional<WopiLockResponse> refusal() {
    return Optional.ofNullable(refused);
  }
}
