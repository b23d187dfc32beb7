package io.hostloom.zookeeper;

import io.hostloom.locking.spi.LockBackendException;
import java.io.IOException;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import org.apache.zookeeper.AddWatchMode;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.KeeperException.Code;
import org.apache.zookeeper.Op;
import org.apache.zookeeper.OpResult;
import org.apache.zookeeper.WatchedEvent;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.Watcher.Event.EventType;
import org.apache.zookeeper.ZooDefs.Ids;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.data.Stat;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One ZooKeeper client handle and what keeps it usable: a new handle when the session expires, a
 * future of "connected" that requests wait on, the persistent recursive watches that feed release
 * signals, and the asynchronous requests as futures.
 *
 * <p>Lock records are persistent znodes, so a session ending loses no lease: only watches and the
 * connection go with it.
 */
final class ZooKeeperSession implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(ZooKeeperSession.class);
  private static final long RECONNECT_RETRY_MILLIS = 1000;

  /** The handle of one session; events of older handles are ignored. */
  private static final class Generation {
    ZooKeeper zk;
    boolean connectedOnce;
    int watchesConfirmed; // guarded by lock
  }

  private final String connectString;
  private final int sessionTimeoutMillis;
  private final List<String> watchedPaths;
  private final Watcher changes;
  private final Runnable eventsMayBeMissed;
  private final ScheduledExecutorService timer;
  private final LongAdder requests = new LongAdder();
  private final Object lock = new Object();
  private Generation current; // guarded by lock
  private CompletableFuture<ZooKeeper> connected = new CompletableFuture<>(); // guarded by lock
  private boolean closed; // guarded by lock
  private volatile boolean watching;

  /**
   * @param watchedPaths where the persistent recursive watches go (empty: no watch)
   * @param changes receives the node events under {@code watchedPaths}
   * @param eventsMayBeMissed runs after a reconnect or a new session, when node events may have
   *     been missed
   */
  ZooKeeperSession(
      String connectString,
      int sessionTimeoutMillis,
      List<String> watchedPaths,
      Watcher changes,
      Runnable eventsMayBeMissed,
      ScheduledExecutorService timer)
      throws IOException {
    this.connectString = connectString;
    this.sessionTimeoutMillis = sessionTimeoutMillis;
    this.watchedPaths = List.copyOf(watchedPaths);
    this.changes = changes;
    this.eventsMayBeMissed = eventsMayBeMissed;
    this.timer = timer;
    synchronized (lock) {
      current = open();
    }
  }

  // guarded by lock; events of the new handle wait for the lock, so g.zk is set when they run
  private Generation open() throws IOException {
    Generation g = new Generation();
    g.zk = new ZooKeeper(connectString, sessionTimeoutMillis, event -> onState(g, event));
    return g;
  }

  private void onState(Generation g, WatchedEvent event) {
    if (event.getType() != EventType.None) {
      return;
    }
    boolean missed = false;
    synchronized (lock) {
      if (g != current || closed) {
        return;
      }
      switch (event.getState()) {
        case SyncConnected -> {
          missed = g.connectedOnce; // same session again: the watch is re-sent, events between not
          if (!g.connectedOnce) {
            g.connectedOnce = true;
            addWatch(g);
          }
          if (!connected.complete(g.zk)) {
            connected = CompletableFuture.completedFuture(g.zk);
          }
        }
        case Disconnected -> {
          if (connected.isDone()) {
            connected = new CompletableFuture<>();
          }
        }
        case Expired -> {
          log.info(
              "ZooKeeper session expired; opening a new one (leases are kept: persistent nodes)");
          watching = false;
          missed = true;
          if (connected.isDone()) {
            connected = new CompletableFuture<>();
          }
          replace(g);
        }
        default -> {}
      }
    }
    if (missed) {
      eventsMayBeMissed.run();
    }
  }

  // guarded by lock
  private void replace(Generation old) {
    closeQuietly(old.zk);
    try {
      current = open();
    } catch (IOException | RuntimeException e) {
      log.warn("ZooKeeper: cannot open a new session yet ({}); retrying", e.toString());
      timer.schedule(() -> retryReplace(old), RECONNECT_RETRY_MILLIS, TimeUnit.MILLISECONDS);
    }
  }

  private void retryReplace(Generation old) {
    synchronized (lock) {
      if (current == old && !closed) {
        replace(old);
      }
    }
  }

  private void addWatch(Generation g) {
    for (String path : watchedPaths) {
      g.zk.addWatch(
          path,
          changes,
          AddWatchMode.PERSISTENT_RECURSIVE,
          (rc, p, ctx) -> {
            if (rc == Code.OK.intValue()) {
              synchronized (lock) {
                g.watchesConfirmed++;
                watching = g == current && !closed && g.watchesConfirmed == watchedPaths.size();
              }
            } else {
              log.warn(
                  "ZooKeeper: release watch on {} not added ({}); waiters poll", p, Code.get(rc));
            }
          },
          null);
    }
  }

  /** Whether every persistent watch of the current session is confirmed. */
  boolean watching() {
    return watching;
  }

  /** Completes with the handle once connected; fails when closed. */
  CompletableFuture<ZooKeeper> connection() {
    synchronized (lock) {
      if (closed) {
        return CompletableFuture.failedFuture(closedFailure());
      }
      return connected;
    }
  }

  /** The handle of the current session, connected or not ({@code null} after close). */
  ZooKeeper handle() {
    synchronized (lock) {
      return closed ? null : current.zk;
    }
  }

  /** Requests sent since this session object was made (every handle). */
  long requests() {
    return requests.sum();
  }

  CompletableFuture<Stat> create(ZooKeeper zk, String path, byte[] data) {
    CompletableFuture<Stat> f = new CompletableFuture<>();
    requests.increment();
    try {
      zk.create(
          path,
          data,
          Ids.OPEN_ACL_UNSAFE,
          CreateMode.PERSISTENT,
          (rc, p, ctx, name, stat) -> complete(f, rc, p, stat),
          null);
    } catch (RuntimeException e) {
      f.completeExceptionally(e);
    }
    return f;
  }

  CompletableFuture<Stat> exists(ZooKeeper zk, String path) {
    CompletableFuture<Stat> f = new CompletableFuture<>();
    requests.increment();
    try {
      zk.exists(
          path,
          false,
          (rc, p, ctx, stat) -> {
            if (rc == Code.NONODE.intValue()) {
              f.complete(null);
            } else {
              complete(f, rc, p, stat);
            }
          },
          null);
    } catch (RuntimeException e) {
      f.completeExceptionally(e);
    }
    return f;
  }

  /** A node's data and stat; {@code null} when there is no node. */
  record Node(byte[] data, Stat stat) {}

  CompletableFuture<Node> getData(ZooKeeper zk, String path) {
    CompletableFuture<Node> f = new CompletableFuture<>();
    requests.increment();
    try {
      zk.getData(
          path,
          false,
          (rc, p, ctx, data, stat) -> {
            if (rc == Code.NONODE.intValue()) {
              f.complete(null);
            } else {
              complete(f, rc, p, new Node(data, stat));
            }
          },
          null);
    } catch (RuntimeException e) {
      f.completeExceptionally(e);
    }
    return f;
  }

  CompletableFuture<Stat> setData(ZooKeeper zk, String path, byte[] data, int version) {
    CompletableFuture<Stat> f = new CompletableFuture<>();
    requests.increment();
    try {
      zk.setData(path, data, version, (rc, p, ctx, stat) -> complete(f, rc, p, stat), null);
    } catch (RuntimeException e) {
      f.completeExceptionally(e);
    }
    return f;
  }

  CompletableFuture<Void> delete(ZooKeeper zk, String path, int version) {
    CompletableFuture<Void> f = new CompletableFuture<>();
    requests.increment();
    try {
      zk.delete(path, version, (rc, p, ctx) -> complete(f, rc, p, null), null);
    } catch (RuntimeException e) {
      f.completeExceptionally(e);
    }
    return f;
  }

  /** One transaction: all of {@code ops} or none; fails with the first failing op's code. */
  CompletableFuture<List<OpResult>> multi(ZooKeeper zk, List<Op> ops) {
    CompletableFuture<List<OpResult>> f = new CompletableFuture<>();
    requests.increment();
    try {
      zk.multi(ops, (rc, p, ctx, results) -> complete(f, rc, p, results), null);
    } catch (RuntimeException e) {
      f.completeExceptionally(e);
    }
    return f;
  }

  private static <T> void complete(CompletableFuture<T> f, int rc, String path, T value) {
    if (rc == Code.OK.intValue()) {
      f.complete(value);
    } else {
      f.completeExceptionally(KeeperException.create(Code.get(rc), path));
    }
  }

  private static LockBackendException closedFailure() {
    return LockBackendException.unavailable("ZooKeeper backend is closed", null);
  }

  /** Test hook: the session id of the current handle. */
  long sessionId() {
    ZooKeeper zk = handle();
    return zk == null ? 0 : zk.getSessionId();
  }

  @Override
  public void close() {
    ZooKeeper zk;
    CompletableFuture<ZooKeeper> pending;
    synchronized (lock) {
      if (closed) {
        return;
      }
      closed = true;
      watching = false;
      zk = current.zk;
      pending = connected;
    }
    pending.completeExceptionally(closedFailure());
    closeQuietly(zk);
  }

  private static void closeQuietly(ZooKeeper zk) {
    try {
      zk.close(1000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (RuntimeException e) {
      log.debug("ZooKeeper close failed", e);
    }
  }
}
