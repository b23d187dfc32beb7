package io.hostloom.etcd;

import io.etcd.jetcd.Watch;
import io.etcd.jetcd.options.WatchOption;
import io.etcd.jetcd.watch.WatchEvent;
import io.etcd.jetcd.watch.WatchResponse;
import io.hostloom.locking.spi.support.LeaseRounding;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The release signal: one etcd watch over every owner key of the prefix, deletes only. etcd deletes
 * an owner key on release and when its lease runs out, so both wake the waits of that key; a wait
 * is purely local (no request per wait).
 *
 * <p>The watch is opened when the backend is built. Until etcd confirms it, a release could go
 * unseen, so the confirmation wakes every wait registered before it (a spurious wake-up, never a
 * missed one). jetcd resumes a broken watch from the last revision it saw, so a reconnect misses
 * nothing; when the watch fails for good (e.g. the revision was compacted) every wait wakes and a
 * new watch starts after a pause.
 */
final class ReleaseWatch implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(ReleaseWatch.class);
  private static final Duration REWATCH_PAUSE = Duration.ofMillis(500);

  private final Watch watchClient;
  private final EtcdKeyLayout layout;
  private final ScheduledExecutorService timer;
  private final ConcurrentHashMap<String, Set<Wait>> waits = new ConcurrentHashMap<>();
  private final AtomicLong seen = new AtomicLong(); // newest revision this backend has seen
  private volatile boolean up;
  private volatile boolean closed;
  private volatile Watch.Watcher watcher;

  ReleaseWatch(Watch watchClient, EtcdKeyLayout layout, ScheduledExecutorService timer) {
    this.watchClient = watchClient;
    this.layout = layout;
    this.timer = timer;
    open();
  }

  private void open() {
    if (closed) {
      return;
    }
    WatchOption option =
        WatchOption.builder().isPrefix(true).withCreateNotify(true).withRequireLeader(true).build();
    watcher =
        watchClient.watch(
            layout.dataPrefix(), option, Watch.listener(this::onNext, this::onError, () -> {}));
  }

  private void onNext(WatchResponse response) {
    if (response.isCreatedNotify()) {
      if (!up) {
        log.debug("etcd release watch confirmed");
      }
      up = true;
      wakeAll(); // waits registered before the watch was confirmed may have missed a release
      return;
    }
    for (WatchEvent e : response.getEvents()) {
      if (e.getEventType() == WatchEvent.EventType.DELETE || EtcdLockBackend.replaced(e)) {
        long revision = e.getKeyValue().getModRevision();
        layout.lockKeyOf(e.getKeyValue().getKey()).ifPresent(k -> wake(k, revision));
      }
    }
    observed(response.getHeader().getRevision());
  }

  private void onError(Throwable t) {
    boolean wasUp = up;
    up = false;
    wakeAll();
    if (!closed) {
      if (wasUp) {
        log.warn("etcd release watch failed ({}); watching again", t.toString());
      } else {
        log.debug("etcd release watch still failing ({})", t.toString());
      }
      Watch.Watcher old = watcher;
      if (old != null) {
        old.close();
      }
      timer.schedule(this::open, REWATCH_PAUSE.toMillis(), TimeUnit.MILLISECONDS);
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
    return waits.values().stream().mapToInt(Set::size).sum();
  }

  CompletableFuture<Boolean> await(String key, Duration maxWait) {
    if (closed || maxWait.isZero()) {
      return CompletableFuture.completedFuture(false);
    }
    CompletableFuture<Boolean> future = new CompletableFuture<>();
    Wait wait = new Wait(future, seen.get());
    waits.compute(
        key,
        (k, set) -> {
          Set<Wait> s = set == null ? ConcurrentHashMap.newKeySet() : set;
          s.add(wait);
          return s;
        });
    ScheduledFuture<?> timeout =
        timer.schedule(() -> future.complete(false), waitNanos(maxWait), TimeUnit.NANOSECONDS);
    future.whenComplete(
        (r, e) -> {
          timeout.cancel(false);
          waits.computeIfPresent(key, (k, set) -> set.remove(wait) && set.isEmpty() ? null : set);
        });
    if (closed) {
      future.complete(false);
    }
    return future;
  }

  private void wake(String key, long revision) {
    Set<Wait> set = waits.get(key);
    if (set != null) {
      for (Wait w : set.toArray(Wait[]::new)) {
        if (w.after() < revision) {
          w.future().complete(true);
        }
      }
    }
  }

  private void wakeAll() {
    waits.keySet().forEach(k -> wake(k, Long.MAX_VALUE));
  }

  @Override
  public void close() {
    closed = true;
    up = false;
    Watch.Watcher current = watcher;
    if (current != null) {
      current.close();
    }
    for (Set<Wait> set : waits.values()) {
      for (Wait w : set.toArray(Wait[]::new)) {
        w.future().complete(false);
      }
    }
  }

  /** One wait: woken by events newer than {@code after}. */
  private record Wait(CompletableFuture<Boolean> future, long after) {}

  /** {@code maxWait} in nanoseconds, saturated (the shared registry's rule: centuries are fine). */
  private static long waitNanos(Duration maxWait) {
    return maxWait.compareTo(Duration.ofNanos(LeaseRounding.FOREVER)) >= 0
        ? LeaseRounding.FOREVER
        : maxWait.toNanos();
  }
}
