package io.hostloom.azure;

import com.azure.storage.blob.models.BlobStorageException;
import io.hostloom.locking.LockFailureKind;
import io.hostloom.locking.spi.LockBackendException;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.UnknownHostException;
import java.util.Locale;
import java.util.concurrent.TimeoutException;

/**
 * Maps what the Azure SDK and its Netty transport throw onto {@link LockFailureKind}.
 *
 * <ul>
 *   <li>{@code UNAVAILABLE}: no connection could be made (refused, connect timeout, unknown host,
 *       no route), and no earlier write of the same operation had been applied;
 *   <li>{@code TIMEOUT}: the operation's deadline or a read/write timeout fired after the request
 *       may have been sent;
 *   <li>{@code OTHER}: everything else, including HTTP errors and a connection failure after an
 *       earlier write of the same operation had succeeded (the claim may exist).
 * </ul>
 */
final class AzureFailures {
  private AzureFailures() {}

  static LockBackendException toBackendException(
      String operation, Throwable error, boolean writeApplied) {
    if (error instanceof LockBackendException) {
      return (LockBackendException) error;
    }
    LockFailureKind kind = kindOf(error);
    if (kind == LockFailureKind.UNAVAILABLE && writeApplied) {
      kind = LockFailureKind.OTHER;
    }
    String message = "Azure Blob " + operation + " failed (" + kind + "): " + describe(error);
    return new LockBackendException(kind, message, error);
  }

  static LockFailureKind kindOf(Throwable error) {
    for (Throwable t = error; t != null; t = t.getCause() == t ? null : t.getCause()) {
      if (t instanceof ConnectException // Netty's connect timeout is one too: nothing was sent
          || t instanceof UnknownHostException
          || t instanceof NoRouteToHostException) {
        return LockFailureKind.UNAVAILABLE;
      }
      if (t instanceof TimeoutException || isTimeoutType(t.getClass())) {
        return LockFailureKind.TIMEOUT;
      }
    }
    return LockFailureKind.OTHER;
  }

  /** Netty's read/write timeouts and {@code SocketTimeoutException}, without naming Netty. */
  private static boolean isTimeoutType(Class<?> type) {
    for (Class<?> c = type; c != null; c = c.getSuperclass()) {
      if (c.getSimpleName().endsWith("TimeoutException")) {
        return true;
      }
    }
    return false;
  }

  /** The HTTP status of a service error, or 0 for anything else. */
  static int status(Throwable error) {
    return error instanceof BlobStorageException
        ? ((BlobStorageException) error).getStatusCode()
        : 0;
  }

  /**
   * 409 or 412: a conditional request lost to a concurrent change (or found the blob taken), and
   * 404: the blob it was conditioned on is gone. All three mean "read again".
   */
  static boolean isConflict(Throwable error) {
    int s = status(error);
    return s == 404 || s == 409 || s == 412;
  }

  static boolean isContainerMissing(Throwable error) {
    return error instanceof BlobStorageException
        && ((BlobStorageException) error).getErrorCode() != null
        && "ContainerNotFound"
            .equalsIgnoreCase(((BlobStorageException) error).getErrorCode().toString());
  }

  /** A short description without request URLs (they may carry SAS tokens), lock data or owners. */
  static String describe(Throwable error) {
    if (error instanceof BlobStorageException) {
      BlobStorageException e = (BlobStorageException) error;
      return "HTTP " + e.getStatusCode() + (e.getErrorCode() == null ? "" : " " + e.getErrorCode());
    }
    Throwable root = error;
    while (root.getCause() != null && root.getCause() != root) {
      root = root.getCause();
    }
    String m = root.getMessage();
    String type = root.getClass().getSimpleName();
    if (m == null || m.toLowerCase(Locale.ROOT).contains("sig=")) {
      return type;
    }
    return type + ": " + (m.length() > 200 ? m.substring(0, 200) + "..." : m);
  }
}
