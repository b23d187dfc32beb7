package io.hostloom.zookeeper;

import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.apache.zookeeper.WatchedEvent;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.Watcher.Event.EventType;

/**
 * The waits of {@code awaitRelease}, per znode name, woken by the session's persistent recursive
 * watch on the lock folder. A release or replace creates and deletes the child {@link #SIGNAL} of
 * the lock znode in its transaction, so a {@code NodeDeleted} of that child is the announcement;
 * grants and extends only change data, refusals change nothing, and they wake nobody.
 */
final class ReleaseWaiters implements Watcher {
  /** The child a release or replace creates and deletes in its transaction. */
  static final String SIGNAL = "released";

  private static final Duration LONGEST = Duration.ofDays(365);

  private final String folderPrefix; // "<locks folder>/"
  private final ScheduledExecutorService timer;
  private final Map<String, Set<CompletableFuture<Boolean>>> byName = new ConcurrentHashMap<>();

  ReleaseWaiters(String locksFolder, ScheduledExecutorService timer) {
    this.folderPrefix = locksFolder + "/";
    this.timer = timer;
  }

  CompletableFuture<Boolean> await(String name, Duration maxWait) {
    CompletableFuture<Boolean> wait = new CompletableFuture<>();
    Set<CompletableFuture<Boolean>> waits =
        byName.computeIfAbsent(name, n -> ConcurrentHashMap.newKeySet());
    waits.add(wait);
    ScheduledFuture<?> end;
    try {
      end = timer.schedule(() -> wait.complete(false), millisUp(maxWait), TimeUnit.MILLISECONDS);
    } catch (RejectedExecutionException e) { // the backend closed meanwhile
      waits.remove(wait);
      wait.complete(false);
      return wait;
    }
    wait.whenComplete(
        (r, t) -> {
          end.cancel(false);
          byName.computeIfPresent(
              name,
              (n, set) -> {
                set.remove(wait);
                return set.isEmpty() ? null : set;
              });
        });
    return wait;
  }

  @Override
  public void process(WatchedEvent event) {
    String path = event.getPath();
    if (event.getType() != EventType.NodeDeleted
        || path == null
        || !path.startsWith(folderPrefix)) {
      return;
    }
    String rest = path.substring(folderPrefix.length()); // "<name>/released", or "<name>" by hand
    int slash = rest.indexOf('/');
    wake(slash < 0 ? rest : rest.substring(0, slash), true);
  }

  /**
   * Wakes every wait (events may have been missed: a spurious wake-up is allowed, a lost one not).
   */
  void wakeAll() {
    byName.keySet().forEach(name -> wake(name, true));
  }

  /** Ends every wait with {@code false} (the backend closes). */
  void endAll() {
    byName.keySet().forEach(name -> wake(name, false));
  }

  private void wake(String name, boolean released) {
    Set<CompletableFuture<Boolean>> waits = byName.get(name);
    if (waits != null) {
      waits.forEach(w -> w.complete(released));
    }
  }

  int pending() {
    return byName.values().stream().mapToInt(Set::size).sum();
  }

  private static long millisUp(Duration d) {
    if (d.compareTo(LONGEST) > 0) {
      return LONGEST.toMillis();
    }
    long ms = d.toMillis();
    return d.equals(Duration.ofMillis(ms)) ? ms : ms + 1;
  }
}
