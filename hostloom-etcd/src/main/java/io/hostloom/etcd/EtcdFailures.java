package io.hostloom.etcd;

import io.etcd.jetcd.common.exception.EtcdException;
import io.grpc.Status;
import io.hostloom.locking.LockFailureKind;
import io.hostloom.locking.spi.LockBackendException;
import io.hostloom.locking.spi.support.AsyncFailures;
import java.util.concurrent.TimeoutException;

/**
 * Maps what jetcd reports to a {@link LockFailureKind}, by the phase the operation failed in.
 * gRPC's {@code UNAVAILABLE} does not say whether a request was written before the connection
 * broke, so the phase decides: a failure before the operation's one mutating transaction was sent
 * (lease grant, the transaction's own connect) leaves the lock unchanged.
 *
 * <ul>
 *   <li>Before the transaction was sent: {@code TIMEOUT} when no answer came in time, otherwise
 *       {@code UNAVAILABLE} (the lock command cannot have reached etcd; an orphan lease grant
 *       expires by itself).
 *   <li>After the transaction was sent and before its answer: {@code TIMEOUT} for no answer in
 *       time, {@code UNAVAILABLE}, {@code DEADLINE_EXCEEDED} or etcd's own "request timed out" (it
 *       may have been applied), {@code OTHER} for errors etcd answered (invalid argument,
 *       permission denied, too large).
 * </ul>
 */
final class EtcdFailures {
  private EtcdFailures() {}

  static LockBackendException map(String operation, Throwable failure, boolean sent) {
    Throwable t = unwrap(failure);
    if (t instanceof LockBackendException e) {
      return e;
    }
    LockFailureKind kind = kindOf(t, sent);
    return new LockBackendException(
        kind, "etcd " + operation + " failed (" + kind + "): " + describe(t), t);
  }

  /**
   * The failure of a request that changes nothing (a read): {@code TIMEOUT} when no answer came in
   * time, {@code OTHER} for an error etcd answered about the request (invalid argument, permission,
   * authentication, too large), {@code UNAVAILABLE} otherwise (etcd not reached).
   */
  static LockBackendException unchanged(String operation, Throwable failure) {
    Throwable t = unwrap(failure);
    if (t instanceof LockBackendException e) {
      return e;
    }
    LockFailureKind kind =
        t instanceof TimeoutException
            ? LockFailureKind.TIMEOUT
            : switch (codeOf(t)) {
              case DEADLINE_EXCEEDED -> LockFailureKind.TIMEOUT;
              case INVALID_ARGUMENT,
                  PERMISSION_DENIED,
                  UNAUTHENTICATED,
                  FAILED_PRECONDITION,
                  RESOURCE_EXHAUSTED,
                  OUT_OF_RANGE ->
                  LockFailureKind.OTHER;
              default -> LockFailureKind.UNAVAILABLE;
            };
    return new LockBackendException(
        kind, "etcd " + operation + " failed (" + kind + "): " + describe(t), t);
  }

  /** Whether etcd answered that the lease asked for does not exist (revoked or expired). */
  static boolean leaseNotFound(Throwable failure) {
    return codeOf(unwrap(failure)) == Status.Code.NOT_FOUND;
  }

  static LockFailureKind kindOf(Throwable failure, boolean sent) {
    Throwable t = unwrap(failure);
    if (t instanceof TimeoutException) {
      return LockFailureKind.TIMEOUT;
    }
    Status.Code code = codeOf(t);
    if (!sent) {
      return code == Status.Code.DEADLINE_EXCEEDED
          ? LockFailureKind.TIMEOUT
          : LockFailureKind.UNAVAILABLE;
    }
    return switch (code) {
      case UNAVAILABLE, DEADLINE_EXCEEDED, UNKNOWN, ABORTED, CANCELLED -> LockFailureKind.TIMEOUT;
      default -> LockFailureKind.OTHER;
    };
  }

  private static Status.Code codeOf(Throwable t) {
    if (t instanceof EtcdException e) {
      try {
        return Status.Code.valueOf(e.getErrorCode().name());
      } catch (IllegalArgumentException unknown) {
        return Status.Code.UNKNOWN;
      }
    }
    Status s = Status.fromThrowable(t);
    return s.getCode();
  }

  private static String describe(Throwable t) {
    return t instanceof EtcdException e
        ? e.getErrorCode() + " " + t.getMessage()
        : t.getClass().getSimpleName();
  }

  static Throwable unwrap(Throwable t) {
    return AsyncFailures.unwrap(t);
  }
}
