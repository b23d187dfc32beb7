package io.hostloom.etcd;

import io.etcd.jetcd.ByteSequence;
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
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The release signal: one etcd watch over every data key of the prefix and every key of the native
 * views (one range, see {@link EtcdKeyLayout#watchEnd}). A release deletes the data key and a
 * replace rewrites it marked {@code r} ({@link RecordCodec#replaced}), so both wake the waits of
 * that key; a lock's expiry leaves the data key and announces nothing (waiters poll). A view
 * entry's delete (its release, or etcd's delete at its expiry) wakes the waits of its view key. A
 * wait is purely local (no request per wait).
 *
 * <p>The watch is opened when the backend is built. Until etcd confirms it, a release could go
 * unseen, so the confirmation wakes every wait registered before it (a spurious wake-up, never a
 * missed one). jetcd resumes a broken watch from the last revision it saw, so a reconnect misses
 * nothing; when the watch fails for good (e.g. the revision was compacted) every wait wakes and a
 * new watch starts after a pause. The waits are a {@link ReleaseWaitRegistry}, stamped with the
 * newest revision seen when they began.
 *
 * <p><b>One watch at a time, no lock held across jetcd.</b> Each open is a {@link Session}; a
 * failure ends the session it was reported for (its watcher is closed, so jetcd stops resuming it)
 * and schedules the next open, and a report from an ended session is ignored. jetcd reports a
 * failure under its watch client's lock, sometimes synchronously inside {@code watch()} (a channel
 * that fails fast while etcd is down), so this class takes no lock of its own around jetcd calls:
 * holding one across {@code watch()} while jetcd's callback waits for it deadlocks the backend's
 * timer thread, and with it every call's deadline. Open and close race through volatile writes read
 * back afterwards (each writes its side, then reads the other's), so a watch opened while the
 * backend closes is closed by one of them.
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
  private final AtomicReference<Session> current = new AtomicReference<>();

  /** One opened watch: ended once by its failure or by close, whichever comes first. */
  private final class Session {
    private final AtomicBoolean ended = new AtomicBoolean();
    private volatile Watch.Watcher watcher; // null until watch() returned

    /** Ends this session and closes its watcher, once; false when it had ended already. */
    boolean end() {
      if (!ended.compareAndSet(false, true)) {
        return false;
      }
      Watch.Watcher w = watcher;
      if (w != null) {
        w.close(); // a watcher not yet returned is closed by open() when it sees the end
      }
      return true;
    }

    void opened(Watch.Watcher w) {
      watcher = w;
      if (ended.get()) {
        w.close(); // it failed (or close ran) inside watch(): jetcd would resume it by itself
      }
    }
  }

  ReleaseWatch(Watch watchClient, EtcdKeyLayout layout, ScheduledExecutorService timer) {
    this.watchClient = watchClient;
    this.layout = layout;
    this.timer = timer;
    this.waits = new ReleaseWaitRegistry(LockClock.system(timer));
    open();
  }

  /**
   * Opens a new watch session unless closed, ending the one it replaces (normally ended already, by
   * its failure); a close racing it ends the new session either way.
   */
  void open() {
    if (closed) {
      return;
    }
    Session session = new Session();
    Session previous = current.getAndSet(session);
    if (previous != null) {
      previous.end();
    }
    if (closed) {
      session.end();
      return;
    }
    WatchOption option =
        WatchOption.builder()
            .withRange(layout.watchEnd())
            .withCreateNotify(true)
            .withRequireLeader(true)
            .build();
    Watch.Watcher opened;
    try {
      opened =
          watchClient.watch(
              layout.dataPrefix(),
              option,
              Watch.listener(r -> onNext(session, r), t -> onError(session, t), () -> {}));
    } catch (RuntimeException e) {
      onError(session, e); // jetcd throws on a closed client
      return;
    }
    session.opened(opened);
    if (closed) {
      session.end();
    }
  }

  private void onNext(Session session, WatchResponse response) {
    if (session.ended.get()) {
      return;
    }
    if (response.isCreatedNotify()) {
      if (!up) {
        log.debug("etcd release watch confirmed");
      }
      up = true;
      waits.wakeEveryKey(); // waits registered before the confirmation may have missed a release
      return;
    }
    for (WatchEvent e : response.getEvents()) {
      ByteSequence key = e.getKeyValue().getKey();
      long revision = e.getKeyValue().getModRevision();
      if (e.getEventType() == WatchEvent.EventType.DELETE) {
        layout
            .lockKeyOf(key)
            .or(() -> layout.viewKeyOf(key))
            .ifPresent(k -> waits.wakeAll(k, revision));
      } else if (RecordCodec.replaced(e)) {
        layout.lockKeyOf(key).ifPresent(k -> waits.wakeAll(k, revision));
      }
    }
    observed(response.getHeader().getRevision());
  }

  private void onError(Session session, Throwable t) {
    if (!session.end() || closed) {
      return; // a report for a session already ended (by an earlier report or by close)
    }
    boolean wasUp = up;
    up = false;
    if (wasUp) {
      log.warn("etcd release watch failed ({}); watching again", t.toString());
    } else {
      log.debug("etcd release watch still failing ({})", t.toString());
    }
    try {
      // off jetcd's thread, which holds its watch client's lock: woken waiters' continuations
      // (a retried acquire) must not run under it
      timer.execute(waits::wakeEveryKey);
      var unused = timer.schedule(this::open, REWATCH_PAUSE.toMillis(), TimeUnit.MILLISECONDS);
    } catch (RejectedExecutionException e) {
      // the backend's timer is shut down: it is closing, and close() ends the waits
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
    boolean confirmedBefore = up;
    CompletableFuture<Boolean> wait = waits.await(key, maxWait, seen.get());
    if (!confirmedBefore && up) {
      // the confirmation's sweep may have run before this wait was in the registry
      wait.complete(true);
    }
    return wait;
  }

  /** Closes the watch (one being opened too) and ends every wait with {@code false}. */
  @Override
  public void close() {
    closed = true;
    up = false;
    Session session = current.get();
    if (session != null) {
      session.end();
    }
    waits.close();
  }
}
