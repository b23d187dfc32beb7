package io.hostloom.redis;

import io.hostloom.locking.LockFailureKind;
import io.hostloom.locking.spi.LockBackendException;
import io.hostloom.locking.spi.support.AsyncFailures;
import io.lettuce.core.RedisCommandTimeoutException;
import io.lettuce.core.RedisConnectionException;
import io.lettuce.core.RedisException;
import java.util.Set;
import java.util.concurrent.TimeoutException;

/**
 * Maps what Lettuce reports to a {@link LockFailureKind}. The rule: {@code UNAVAILABLE} only when
 * the command provably never left this process; everything that may have reached the server is
 * {@code TIMEOUT} (no answer in time) or {@code OTHER}.
 *
 * <ul>
 *   <li>{@link RedisConnectionException} (connecting failed or timed out; Lettuce reports it before
 *       anything was written), and Lettuce's rejections at write time, "Currently not connected.
 *       Commands are rejected." (disconnected behaviour {@code REJECT_COMMANDS}) and "Connection is
 *       closed", and this backend being closed: {@code UNAVAILABLE}.
 *   <li>{@link RedisCommandTimeoutException} and our own {@link TimeoutException}: {@code TIMEOUT}.
 *   <li>Everything else: {@code OTHER}. That includes "Connection disconnected" (a command that was
 *       written, then the connection dropped before the answer), I/O errors, cancellation by close,
 *       and server errors (OOM, READONLY, WRONGTYPE, CROSSSLOT, a NOSCRIPT after EVAL).
 * </ul>
 */
final class RedisFailures {
  // Lettuce 6.x DefaultEndpoint.validateWrite: thrown before the command is written
  private static final Set<String> REJECTED_BEFORE_WRITE =
      Set.of("Currently not connected. Commands are rejected.", "Connection is closed");

  private RedisFailures() {}

  static LockBackendException map(String operation, Throwable failure) {
    Throwable t = unwrap(failure);
    if (t instanceof LockBackendException e) {
      return e;
    }
    LockFailureKind kind = kindOf(t);
    String message =
        "Redis " + operation + " failed (" + kind + "): " + t.getClass().getSimpleName();
    return new LockBackendException(kind, message, t);
  }

  static LockFailureKind kindOf(Throwable failure) {
    Throwable t = unwrap(failure);
    if (t instanceof LockBackendException e) {
      return e.kind();
    }
    if (t instanceof RedisCommandTimeoutException || t instanceof TimeoutException) {
      return LockFailureKind.TIMEOUT;
    }
    if (t instanceof RedisConnectionException) {
      return LockFailureKind.UNAVAILABLE;
    }
    if (t.getClass() == RedisException.class && REJECTED_BEFORE_WRITE.contains(t.getMessage())) {
      return LockFailureKind.UNAVAILABLE;
    }
    return LockFailureKind.OTHER;
  }

  static Throwable unwrap(Throwable t) {
    return AsyncFailures.unwrap(t);
  }
}
