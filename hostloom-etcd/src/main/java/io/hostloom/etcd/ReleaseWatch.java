package io.hostloom.etcd;

import io.etcd.jetcd.Watch;
import io.etcd.jetcd.options.WatchOption;
import io.etcd.jetcd.watch.WatchEvent;
import io.etcd.jetcd.watch.WatchResponse;
import io.hostloom.locking.spi.support.ReleaseWaitRegistry;
import io.hostloom.locking.time.LockClock;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The release signal: one etcd watch over every data key of the prefix. A release deletes the data
 * key and a replace rewrites it marked {@code r} ({@link RecordCodec#replaced}), so both wake the
 * waits of that key; an expiry leaves the data key and announces nothing (waiters poll). A wait is
 * purely local (no request per wait).
 *
 * <p>The watch is opened when the backend is built. Until etcd confirms it, a release could go
 * unseen, so the confirmation wakes every wait registered before it (a spurious wake-up, never a
 * missed one). jetcd resumes a broken watch from the last revision it saw, so a reconnect misses
 * nothing; when the watch fails for good (e.g. the revision was compacted) every wait wakes and a
 * new watch starts after a pause. The waits are a {@link ReleaseWaitRegistry}, stamped with the
 * newest revision seen when they began.
 *
 * <p>Opening and closing exclude each other, so a watch opened while the backend closes is closed
 * at once instead of left watching.
 */
final class ReleaseWatch implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(ReleaseWatch.class);
  private static final Duration REWATCH_PAUSE = Duration.ofMillis(500);

  private final Watch watchClient;
  private final EtcdKeyLayout layout;
  private final ScheduledExecutorService timer;
  private final ReleaseWaitRegistry waits;
  private final AtomicLong seen = new AtomicLong(); // newest revision this backend has seen
  private volatile boolean up;
  private volatile boolean closed;
  private volatile Watch.Watcher watcher;

  ReleaseWatch(Watch watchClient, EtcdKeyLayout layout, ScheduledExecutorService timer) {
    this.watchClient = watchClient;
    this.layout = layout;
    this.timer = timer;
    this.waits = new ReleaseWaitRegistry(LockClock.system(timer));
    open();
  }

  /**
   * Opens the watch unless closed. A close on another thread waits for it (both are synchronized);
   * one that ran meanwhile on this thread (from inside the client) is seen after: no watch outlives
   * the close.
   */
  synchronized void open() {
    if (closed) {
      return;
    }
    WatchOption option =
        WatchOption.builder().isPrefix(true).withCreateNotify(true).withRequireLeader(true).build();
    Watch.Watcher opened =
        watchClient.watch(
            layout.dataPrefix(), option, Watch.listener(this::onNext, this::onError, () -> {}));
    watcher = opened;
    if (closed) {
      opened.close();
    }
  }

  private void onNext(WatchResponse response) {
    if (response.isCreatedNotify()) {
      if (!up) {
        log.debug("etcd release watch confirmed");
      }
      up = true;
      waits.wakeEveryKey(); // waits registered before the confirmation may have missed a release
      return;
    }
    for (WatchEvent e : response.getEvents()) {
      if (e.getEventType() == WatchEvent.EventType.DELETE || RecordCodec.replaced(e)) {
        long revision = e.getKeyValue().getModRevision();
        layout.lockKeyOf(e.getKeyValue().getKey()).ifPresent(k -> waits.wakeAll(k, revision));
      }
    }
    observed(response.getHeader().getRevision());
  }

  private void onError(Throwable t) {
    boolean wasUp = up;
    up = false;
    waits.wakeEveryKey();
    synchronized (this) {
      if (closed) {
        return;
      }
      if (wasUp) {
        log.warn("etcd release watch failed ({}); watching again", t.toString());
      } else {
        log.debug("etcd release watch still failing ({})", t.toString());
      }
      Watch.Watcher old = watcher;
      if (old != null) {
        old.close();
      }
      try {
        var unused = timer.schedule(this::open, REWATCH_PAUSE.toMillis(), TimeUnit.MILLISECONDS);
      } catch (RejectedExecutionException e) {
        // the backend's timer is shut down: it is closing, nothing to watch again for
      }
    }
  }

  /**
   * Records a revision this backend has seen (its own answers, the watch): a wait that starts after
   * it ignores events up to it, so a release this backend already saw cannot wake a later wait.
   */
  void observed(long revision) {
    seen.accumulateAndGet(revision, Math::max);
  }

  /** Whether etcd confirmed the watch (and it has not failed since). */
  boolean up() {
    return up;
  }

  /** Waits not yet ended. */
  int waiters() {
    return waits.pending();
  }

  /** A wait woken by a delete or replace of {@code key} newer than what this backend has seen. */
  CompletableFuture<Boolean> await(String key, Duration maxWait) {
    return waits.await(key, maxWait, seen.get());
  }

  /** Closes the watch (after an open in progress) and ends every wait with {@code false}. */
  @Override
  public void close() {
    synchronized (this) {
      closed = true;
      up = false;
      Watch.Watcher current = watcher;
      if (current != null) {
        current.close();
      }
    }
    waits.close();
  }
}
