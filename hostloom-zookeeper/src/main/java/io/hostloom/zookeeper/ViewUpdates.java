package io.hostloom.zookeeper;

import io.hostloom.locking.spi.LockBackendException;
import io.hostloom.zookeeper.ZooKeeperRecordStore.NodeAt;
import io.hostloom.zookeeper.ZooKeeperSession.Node;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
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
 * {@code OTHER}. The calls of one znode are <b>batched</b>: while a batch runs, the calls that
 * arrive queue, and the next batch decides them all, in arrival order, on one read and carries them
 * in one write. So the callers of this instance never lose writes to each other (16 threads on one
 * semaphore lost up to 64 in a row when each call raced on its own), only to other sessions, and a
 * busy znode costs two round trips per batch, not per call. Every call completes within the command
 * timeout ({@code TIMEOUT}); failures are the store's ({@code UNAVAILABLE} for a read, {@code
 * TIMEOUT} for a write whose connection failed).
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

  private final ConcurrentMap<String, Queue> queues = new ConcurrentHashMap<>();
  private final ZooKeeperRecordStore store;
  private final ScheduledExecutorService timer;
  private final Duration commandTimeout;

  ViewUpdates(ZooKeeperRecordStore store, ScheduledExecutorService timer, Duration commandTimeout) {
    this.store = store;
    this.timer = timer;
    this.commandTimeout = commandTimeout;
  }

  /** One call waiting for, or taking part in, a batch of its znode. */
  private record Call<T>(String operation, Decide<T> decide, CompletableFuture<T> result) {
    @SuppressWarnings("unchecked") // the answer of this call's own decision
    void answer(Object answer) {
      result.complete((T) answer);
    }
  }

  /** The calls of one znode that arrived since its running batch was taken. */
  private static final class Queue {
    final List<Call<?>> calls = new ArrayList<>();
  }

  /**
   * Runs {@code decide} atomically on the view znode {@code path}, in the next batch of that znode
   * (every call of this instance that arrived while the previous batch ran); the command timeout
   * counts from now, the wait for the batch included.
   */
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
    boolean[] first = new boolean[1];
    queues.compute(
        path,
        (k, q) -> {
          first[0] = q == null; // no batch running: this call starts one
          Queue queue = q == null ? new Queue() : q;
          queue.calls.add(new Call<>(operation, decide, result));
          return queue;
        });
    if (first[0]) {
      nextBatch(path);
    }
    return result;
  }

  /**
   * Takes the calls queued for {@code path} and runs them as one batch, then the calls that came
   * meanwhile; once none came, the znode's queue is removed (the next call starts a batch).
   */
  private void nextBatch(String path) {
    List<Call<?>> batch = new ArrayList<>();
    queues.compute(
        path,
        (k, q) -> {
          for (Call<?> c : q.calls) {
            if (!c.result().isDone()) { // timed out while queued: nothing was sent
              batch.add(c);
            }
          }
          q.calls.clear();
          return batch.isEmpty() ? null : q;
        });
    if (!batch.isEmpty()) {
      attempt(path, batch, 0);
    }
  }

  private void attempt(String path, List<Call<?>> batch, int lost) {
    var unused =
        store
            .connected()
            .thenCompose(
                zk ->
                    store
                        .readAt(zk, path, "setData(clock)+getData")
                        .thenCompose(at -> decideAndWrite(zk, path, at, batch)))
            .whenComplete(
                (answers, t) -> {
                  if (t != null) {
                    batch.forEach(c -> c.result().completeExceptionally(failure(c.operation(), t)));
                  } else if (answers.isPresent()) {
                    for (int i = 0; i < batch.size(); i++) {
                      batch.get(i).answer(answers.get().get(i));
                    }
                  } else if (lost + 1 >= MAX_LOST_WRITES) {
                    batch.forEach(c -> c.result().completeExceptionally(gaveUp(c, lost + 1)));
                  } else {
                    List<Call<?>> live = new ArrayList<>(batch);
                    live.removeIf(c -> c.result().isDone()); // timed out: send nothing more
                    if (!live.isEmpty()) {
                      attempt(path, live, lost + 1);
                      return;
                    }
                  }
                  nextBatch(path);
                });
  }

  private static LockBackendException gaveUp(Call<?> call, int lost) {
    return LockBackendException.other(
        "ZooKeeper "
            + call.operation()
            + ": gave up after "
            + lost
            + " conditional writes lost to concurrent changes",
        null);
  }

  /**
   * The batch's answers once written (or when nothing is to be written), in the calls' order; empty
   * when the write was lost. Each call decides on the state the calls before it left, at the same
   * server now; one write carries them all.
   */
  private CompletableFuture<Optional<List<Object>>> decideAndWrite(
      ZooKeeper zk, String path, NodeAt at, List<Call<?>> batch) {
    Node n = at.node();
    ViewNode stored = n == null ? ViewNode.EMPTY : ViewNode.decode(n.data());
    if (stored == null) {
      throw LockBackendException.other("a view znode holds bytes HostLoom did not write", null);
    }
    long now = at.now();
    ViewNode current = stored.liveAt(now);
    boolean changed = false;
    boolean announce = false;
    List<Object> answers = new ArrayList<>(batch.size());
    for (Call<?> c : batch) {
      Step<?> step = c.decide().at(current, now, Math.max(current.lastToken() + 1, at.clockZxid()));
      answers.add(step.answer());
      if (step.next() != null) {
        current = step.next();
        changed = true;
        announce |= step.announce();
      }
    }
    if (!changed) {
      return CompletableFuture.completedFuture(Optional.of(answers));
    }
    byte[] bytes = current.encode();
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
                zk, path, bytes, n.stat().getVersion(), n.stat().getNumChildren() > 0, announce);
    return written.thenApply(stat -> stat == null ? Optional.empty() : Optional.of(answers));
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
