package io.hostloom.zookeeper;

import io.hostloom.locking.LockFailureKind;
import io.hostloom.locking.spi.LockBackendException;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeoutException;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.KeeperException.Code;

/**
 * Maps a failed operation to a {@link LockFailureKind}. The rule: {@code UNAVAILABLE} when no write
 * to the lock's znode can have been applied (none was sent, or the server answered that it was not
 * applied); otherwise {@code TIMEOUT} for a lost connection, an expired session or no answer in
 * time (the write may have been applied), and {@code OTHER} for any other answer.
 */
final class ZooKeeperFailures {
  private ZooKeeperFailures() {}

  static LockBackendException map(String operation, Throwable failure, boolean mayHaveWritten) {
    Throwable t = unwrap(failure);
    if (t instanceof LockBackendException e) {
      return e;
    }
    LockFailureKind kind;
    if (!mayHaveWritten) {
      kind = LockFailureKind.UNAVAILABLE;
    } else if (t instanceof TimeoutException || isConnectionProblem(t)) {
      kind = LockFailureKind.TIMEOUT;
    } else {
      kind = LockFailureKind.OTHER;
    }
    String cause = t instanceof KeeperException k ? k.code().name() : t.getClass().getSimpleName();
    return new LockBackendException(
        kind, "ZooKeeper " + operation + " failed (" + kind + "): " + cause, t);
  }

  static boolean isConnectionProblem(Throwable t) {
    if (t instanceof KeeperException k) {
      Code c = k.code();
      return c == Code.CONNECTIONLOSS
          || c == Code.SESSIONEXPIRED
          || c == Code.OPERATIONTIMEOUT
          || c == Code.SESSIONMOVED
          || c == Code.REQUESTTIMEOUT;
    }
    return false;
  }

  /** The ZooKeeper answer code of {@code failure}, or {@code null} when it is no answer. */
  static Code code(Throwable failure) {
    return unwrap(failure) instanceof KeeperException k ? k.code() : null;
  }

  static Throwable unwrap(Throwable t) {
    Throwable c = t;
    while ((c instanceof CompletionException || c instanceof ExecutionException)
        && c.getCause() != null) {
      c = c.getCause();
    }
    return c;
  }
}
