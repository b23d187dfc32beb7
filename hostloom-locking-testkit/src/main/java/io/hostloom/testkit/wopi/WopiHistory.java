package io.hostloom.testkit.wopi;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A recorded history of WOPI lock requests, for {@link WopiLinearizabilityChecker}: each request
 * with its invoke and completion times ({@link System#nanoTime()}, so every recorder of one history
 * runs in one JVM) and what the host answered. Thread-safe: clients record concurrently.
 *
 * <pre>{@code
 * WopiHistory.Call c = history.invoke(client, fileId, Request.unlock("lin-C"));
 * WopiLockResponse r = protocol.unlock(fileId, "lin-C");   // or an HTTP request
 * c.completed(r.status(), r.lock().orElse(null));           // or c.unknown() on a timeout / 503
 * }</pre>
 */
public final class WopiHistory {
  /** The five lock requests of the WOPI lock model. */
  public enum Kind {
    LOCK,
    GET_LOCK,
    REFRESH_LOCK,
    UNLOCK,
    UNLOCK_AND_RELOCK
  }

  /**
   * One request: {@code lock} is the {@code X-WOPI-Lock} sent (null for GET_LOCK), {@code oldLock}
   * the {@code X-WOPI-OldLock} (UNLOCK_AND_RELOCK only).
   */
  public record Request(Kind kind, String lock, String oldLock) {
    public Request {
      Objects.requireNonNull(kind, "kind");
      if ((kind == Kind.GET_LOCK) != (lock == null)) {
        throw new IllegalArgumentException(kind + " with lock " + lock);
      }
      if ((kind == Kind.UNLOCK_AND_RELOCK) != (oldLock != null)) {
        throw new IllegalArgumentException(kind + " with old lock " + oldLock);
      }
    }

    public static Request lock(String lock) {
      return new Request(Kind.LOCK, lock, null);
    }

    public static Request getLock() {
      return new Request(Kind.GET_LOCK, null, null);
    }

    public static Request refreshLock(String lock) {
      return new Request(Kind.REFRESH_LOCK, lock, null);
    }

    public static Request unlock(String lock) {
      return new Request(Kind.UNLOCK, lock, null);
    }

    public static Request unlockAndRelock(String lock, String oldLock) {
      return new Request(Kind.UNLOCK_AND_RELOCK, lock, oldLock);
    }

    /**
     * A random request for linearizability runs on one file: LOCK 30 %, UNLOCK 20 %,
     * UnlockAndRelock 20 %, REFRESH_LOCK 15 %, GET_LOCK 15 %, with the lock ids {@code lin-A} to
     * {@code lin-D} (few ids: many conflicts, and a small search).
     */
    public static Request random(java.util.Random random) {
      String[] ids = {"lin-A", "lin-B", "lin-C", "lin-D"};
      String id = ids[random.nextInt(ids.length)];
      int roll = random.nextInt(100);
      if (roll < 30) {
        return lock(id);
      }
      if (roll < 50) {
        return unlock(id);
      }
      if (roll < 70) {
        return unlockAndRelock(id, ids[random.nextInt(ids.length)]);
      }
      if (roll < 85) {
        return refreshLock(id);
      }
      return getLock();
    }

    @Override
    public String toString() {
      return switch (kind) {
        case GET_LOCK -> "GET_LOCK";
        case UNLOCK_AND_RELOCK ->
            "LOCK(X-WOPI-Lock: " + lock + ", X-WOPI-OldLock: " + oldLock + ")";
        default -> kind + "(X-WOPI-Lock: " + lock + ")";
      };
    }
  }

  /**
   * A finished request. {@code status} is the HTTP status (200, 409), or {@link #UNKNOWN} when no
   * answer came (a timeout, a 503, a dropped connection): such a request may have taken effect at
   * any time after {@code invokedAt}, or never. {@code reportedLock} is the {@code X-WOPI-Lock}
   * response header, null when absent.
   */
  public record Op(
      int id,
      int client,
      String fileId,
      Request request,
      long invokedAt,
      long completedAt,
      int status,
      String reportedLock) {
    public boolean unknown() {
      return status == UNKNOWN;
    }

    @Override
    public String toString() {
      String answer =
          unknown()
              ? "no answer"
              : status + (reportedLock == null ? "" : ", X-WOPI-Lock: " + reportedLock);
      return "#" + id + " client " + client + " " + request + " -> " + answer;
    }
  }

  /** The status of a request whose outcome is not known. */
  public static final int UNKNOWN = -1;

  /** A request in flight; complete it exactly once. */
  public final class Call {
    private final int id;
    private final int client;
    private final String fileId;
    private final Request request;
    private final long invokedAt;
    private boolean done;

    private Call(int id, int client, String fileId, Request request, long invokedAt) {
      this.id = id;
      this.client = client;
      this.fileId = fileId;
      this.request = request;
      this.invokedAt = invokedAt;
    }

    /** The host answered {@code status} with {@code X-WOPI-Lock: reportedLock} (null: absent). */
    public void completed(int status, String reportedLock) {
      finish(System.nanoTime(), status, reportedLock);
    }

    /** No answer: the request may take effect later, or may never have. */
    public void unknown() {
      finish(Long.MAX_VALUE, UNKNOWN, null);
    }

    private void finish(long at, int status, String reportedLock) {
      synchronized (WopiHistory.this) {
        if (done) {
          throw new IllegalStateException("call #" + id + " was already completed");
        }
        done = true;
        ops.add(new Op(id, client, fileId, request, invokedAt, at, status, reportedLock));
      }
    }
  }

  private final AtomicInteger ids = new AtomicInteger();
  private final List<Op> ops = new ArrayList<>();

  /** Records that {@code client} sends {@code request} on {@code fileId} now. */
  public Call invoke(int client, String fileId, Request request) {
    Objects.requireNonNull(fileId, "fileId");
    Objects.requireNonNull(request, "request");
    return new Call(ids.getAndIncrement(), client, fileId, request, System.nanoTime());
  }

  /** The completed requests so far (a request never completed is not part of the history). */
  public synchronized List<Op> ops() {
    return List.copyOf(ops);
  }

  /**
   * Adds an already timed request (for hand-written histories in tests); times are any consistent
   * unit.
   */
  public synchronized Op add(
      int client,
      String fileId,
      Request request,
      long invokedAt,
      long completedAt,
      int status,
      String reportedLock) {
    if (status != UNKNOWN && completedAt < invokedAt) {
      throw new IllegalArgumentException("completed before invoked: " + request);
    }
    Op op =
        new Op(
            ids.getAndIncrement(),
            client,
            fileId,
            request,
            invokedAt,
            status == UNKNOWN ? Long.MAX_VALUE : completedAt,
            status,
            reportedLock);
    ops.add(op);
    return op;
  }
}
