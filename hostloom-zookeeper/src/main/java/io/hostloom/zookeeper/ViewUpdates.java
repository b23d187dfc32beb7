package io.hostloom.zookeeper;

import io.hostloom.locking.spi.LockBackendException;
import io.hostloom.zookeeper.ZooKeeperRecordStore.NodeAt;
import io.hostloom.zookeeper.ZooKeeperSession.Node;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.data.Stat;

/**
 * The atomic step of the native views over one view znode ({@link ViewNode}): the clock write
 * pipelined with a {@code getData} of the znode (one round trip, the server's now and the entries),
 * a local decision on the entries live at that now, and, when the decision changes something, one
 * write conditioned on the data version read, or a create when the znode is absent (one more round
 * trip). A write lost to a concurrent change (bad version, or a create that met the znode) changed
 * nothing and starts a new attempt, at most {@link #MAX_LOST_WRITES} times; then the call fails
 * {@code OTHER}. Every call completes within the command timeout ({@code TIMEOUT}); failures are
 * the store's ({@code UNAVAILABLE} for a read, {@code TIMEOUT} for a write whose connection
 * failed).
 */
final class ViewUpdates {
  /** Conditional writes lost to concurrent changes before a call gives up. */
  static final int MAX_LOST_WRITES = 64;

  /** Below ZooKeeper's default packet limit (jute.maxbuffer, 1 MiB) with room for the request. */
  static final int MAX_NODE_BYTES = 1_000_000;

  /** What an operation does with the entries of a key live at the server's now. */
  interface Decide<T> {
    /**
     * The step to take.
     *
     * @param live the znode's content without expired entries ({@link ViewNode#EMPTY} if absent)
     * @param now the server's now, in milliseconds
     * @param tokenFloor the least token a new grant may take: above every token of the key, and
     *     above every zxid before this operation (so tokens keep increasing even if the znode were
     *     deleted by hand)
     */
    Step<T> at(ViewNode live, long now, long tokenFloor);
  }

  /**
   * A decision: the answer, and the content to write first ({@code null}: nothing to write).
   *
   * @param announce whether the write removes an entry (a release wakes the key's waits)
   */
  record Step<T>(T answer, ViewNode next, boolean announce) {
    static <T> Step<T> answer(T answer) {
      return new Step<>(answer, null, false);
    }

    static <T> Step<T> write(T answer, ViewNode next) {
      return new Step<>(answer, next, false);
    }

    static <T> Step<T> release(T answer, ViewNode next) {
      return new Step<>(answer, next, true);
    }
  }

  private final ZooKeeperRecordStore store;
  private final ScheduledExecutorService timer;
  private final Duration commandTimeout;

  ViewUpdates(ZooKeeperRecordStore store, ScheduledExecutorService timer, Duration commandTimeout) {
    this.store = store;
    this.timer = timer;
    this.commandTimeout = commandTimeout;
  }

  /** Runs {@code decide} atomically on the view znode {@code path}. */
  <T> CompletableFuture<T> run(String operation, String path, Decide<T> decide) {
    CompletableFuture<T> result = new CompletableFuture<>();
    ScheduledFuture<?> deadline;
    try {
      deadline =
          timer.schedule(
              () ->
                  result.completeExceptionally(
                      LockBackendException.timeout(
                          "ZooKeeper " + operation + ": no answer within " + commandTimeout, null)),
              commandTimeout.toNanos(),
              TimeUnit.NANOSECONDS);
    } catch (RejectedExecutionException e) { // closed
      return CompletableFuture.failedFuture(
          LockBackendException.unavailable("ZooKeeper backend is closed", e));
    }
    var unused = result.whenComplete((v, t) -> deadline.cancel(false));
    attempt(operation, path, decide, result, 0);
    return result;
  }

  private <T> void attempt(
      String operation, String path, Decide<T> decide, CompletableFuture<T> result, int lost) {
    if (result.isDone()) {
      return; // timed out: send nothing more
    }
    var unused =
        store
            .connected()
            .thenCompose(
                zk ->
                    store
                        .readAt(zk, path, "setData(clock)+getData")
                        .thenCompose(at -> decideAndWrite(zk, path, at, decide)))
            .whenComplete(
                (written, t) -> {
                  if (t != null) {
                    result.completeExceptionally(failure(operation, t));
                  } else if (written.isPresent()) {
                    result.complete(written.get());
                  } else if (lost + 1 >= MAX_LOST_WRITES) {
                    result.completeExceptionally(
                        LockBackendException.other(
                            "ZooKeeper "
                                + operation
                                + ": gave up after "
                                + (lost + 1)
                                + " conditional writes lost to concurrent changes",
                            null));
                  } else {
                    attempt(operation, path, decide, result, lost + 1);
                  }
                });
  }

  /** The answer once written (or when nothing is to be written); empty when the write was lost. */
  private <T> CompletableFuture<Optional<T>> decideAndWrite(
      ZooKeeper zk, String path, NodeAt at, Decide<T> decide) {
    Node n = at.node();
    ViewNode stored = n == null ? ViewNode.EMPTY : ViewNode.decode(n.data());
    if (stored == null) {
      throw LockBackendException.other("a view znode holds bytes HostLoom did not write", null);
    }
    long now = at.now();
    Step<T> step =
        decide.at(stored.liveAt(now), now, Math.max(stored.lastToken() + 1, at.clockZxid()));
    if (step.next() == null) {
      return CompletableFuture.completedFuture(Optional.of(step.answer()));
    }
    byte[] bytes = step.next().encode();
    if (bytes.length > MAX_NODE_BYTES) {
      throw LockBackendException.other(
          "the view znode would hold "
              + bytes.length
              + " bytes, more than "
              + MAX_NODE_BYTES
              + " (too many or too long entries for one key)",
          null);
    }
    CompletableFuture<Stat> written =
        n == null
            ? store.createNode(zk, path, bytes)
            : store.writeOver(
                zk,
                path,
                bytes,
                n.stat().getVersion(),
                n.stat().getNumChildren() > 0,
                step.announce());
    return written.thenApply(stat -> stat == null ? Optional.empty() : Optional.of(step.answer()));
  }

  /** The store's failure kind, under the operation's name; never a key, owner or data. */
  private static LockBackendException failure(String operation, Throwable t) {
    Throwable c = ZooKeeperFailures.unwrap(t);
    LockBackendException e =
        c instanceof LockBackendException known
            ? known
            : LockBackendException.other(c.getClass().getSimpleName(), c);
    return new LockBackendException(
        e.kind(), "zookeeper " + operation + " failed (" + e.kind() + "): " + e.getMessage(), e);
  }
}
