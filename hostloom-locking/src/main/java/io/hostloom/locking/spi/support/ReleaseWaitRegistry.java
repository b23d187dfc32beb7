package io.hostloom.locking.spi.support;

import io.hostloom.locking.time.LockClock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.BiConsumer;

/**
 * The pending waits of a {@link io.hostloom.locking.spi.ReleaseSignal}, per key: what every release
 * signal keeps the same way, whatever carries its announcements (a compute, a pub/sub channel,
 * {@code LISTEN}, a watch). A backend registers a wait with {@link #await}, and its announcement
 * channel calls {@link #wakeOne}, {@link #wakeAll(String)}, {@link #wakeEveryKey()} after a
 * reconnect, and {@link #close()} when the backend closes.
 *
 * <p><b>The one rounding rule.</b> {@code maxWait} is taken in nanoseconds, exactly (the finest a
 * {@link Duration} has, so a wait never ends before it), saturated at {@link LeaseRounding#FOREVER}
 * nanoseconds (about 73 years: as good as forever, and any "now" plus it still fits a {@code
 * long}). Zero answers {@code false} at once and registers nothing; negative is refused. See {@link
 * #waitNanos}.
 *
 * <p><b>Ending.</b> A wait ends with {@code true} when woken, with {@code false} at {@code maxWait}
 * on the given clock's timer or when the registry closes; the caller may end it early by completing
 * or cancelling the future. However it ends, its timer is cancelled and it leaves the registry: no
 * key, timer or future stays behind. Futures complete on the thread that woke them (an announcing
 * thread, the timer, the closing thread), never inside a lock of the registry.
 *
 * <p><b>Stamps.</b> A wait may carry a stamp (e.g. the newest revision the backend had seen when it
 * began); {@link #wakeAll(String, long)} then wakes only waits stamped before the announcement, so
 * an announcement the backend had already seen cannot wake a later wait. Waits without a stamp are
 * woken by every announcement of their key.
 *
 * <p>Thread-safe; every method but {@link #await} is safe to call from any callback.
 */
public final class ReleaseWaitRegistry {
  /** The stamp of a wait that every announcement of its key wakes. */
  public static final long NO_STAMP = Long.MIN_VALUE;

  private static final BackendArguments ARGUMENTS = BackendArguments.unbounded();

  private final LockClock timers;
  // per key, the pending waits in the order they began: a key's only wait as itself, or a
  // LinkedHashSet<Wait> of two or more (a single waiter, the common case, costs no set); guarded
  // by the map's per-key atomic compute, and the map drops a key whose last wait ended
  private final ConcurrentMap<String, Object> byKey = new ConcurrentHashMap<>();
  private volatile boolean closed;

  /**
   * One pending wait; identity is its equality (futures have no defined equals). Its own {@code
   * maxWait} timer task and its own completion callback, so a wait allocates no lambdas.
   */
  private final class Wait implements Runnable, BiConsumer<Boolean, Throwable> {
    final CompletableFuture<Boolean> future = new CompletableFuture<>();
    final String key;
    final long stamp;
    final long endNanos; // on the registry's clock: when maxWait ends it
    volatile LockClock.Timer timer;

    Wait(String key, long stamp, long endNanos) {
      this.key = key;
      this.stamp = stamp;
      this.endNanos = endNanos;
    }

    @Override
    public void run() {
      future.complete(false); // maxWait
    }

    @Override
    public void accept(Boolean released, Throwable error) {
      LockClock.Timer t = timer;
      if (t != null) {
        t.cancel();
      }
      forget(key, this);
    }
  }

  @SuppressWarnings("unchecked") // the map holds a Wait or a LinkedHashSet<Wait>, nothing else
  private static LinkedHashSet<Wait> asSet(Object waits) {
    return (LinkedHashSet<Wait>) waits;
  }

  /**
   * A registry whose {@code maxWait} timers run on {@code timers} ({@link LockClock#system()}, a
   * backend's executor through {@link
   * LockClock#system(java.util.concurrent.ScheduledExecutorService)}, or a manual clock in tests).
   * A rejected timer (its executor shut down) ends the wait with {@code false}.
   */
  public ReleaseWaitRegistry(LockClock timers) {
    this.timers = Objects.requireNonNull(timers, "timers");
  }

  /**
   * {@code maxWait} in nanoseconds by the one rule of every release wait: exact, saturated at
   * {@link LeaseRounding#FOREVER}.
   *
   * @throws NullPointerException when {@code maxWait} is null
   * @throws IllegalArgumentException when {@code maxWait} is negative
   */
  public static long waitNanos(Duration maxWait) {
    ARGUMENTS.awaitRelease("-", maxWait);
    if (maxWait.getSeconds() >= LeaseRounding.FOREVER / 1_000_000_000L) {
      return LeaseRounding.FOREVER;
    }
    return Math.min(LeaseRounding.FOREVER, maxWait.toNanos());
  }

  /** {@link #await(String, Duration, long)} without a stamp: every announcement of key wakes it. */
  public CompletableFuture<Boolean> await(String key, Duration maxWait) {
    return await(key, maxWait, NO_STAMP);
  }

  /**
   * Starts a wait for {@code key}, as {@link io.hostloom.locking.spi.ReleaseSignal#awaitRelease}
   * promises: {@code true} when woken, {@code false} at {@code maxWait} (zero: at once, nothing
   * registered) or at {@link #close()}. Never blocks.
   *
   * @param key the key in whatever form the backend's announcements name it
   * @param maxWait the longest wait, rounded by {@link #waitNanos}
   * @param stamp {@link #wakeAll(String, long)} wakes this wait only for announcements after it
   * @throws NullPointerException when an argument is null
   * @throws IllegalArgumentException when {@code key} is empty or {@code maxWait} is negative
   */
  public CompletableFuture<Boolean> await(String key, Duration maxWait, long stamp) {
    ARGUMENTS.awaitRelease(key, maxWait);
    long nanos = waitNanos(maxWait);
    if (nanos == 0 || closed) {
      return CompletableFuture.completedFuture(false);
    }
    Wait wait = new Wait(key, stamp, timers.nanoTime() + nanos);
    byKey.compute(
        key,
        (k, waits) -> {
          if (waits == null) {
            return wait;
          }
          LinkedHashSet<Wait> s;
          if (waits instanceof Wait only) {
            s = new LinkedHashSet<>(4);
            s.add(only);
          } else {
            s = asSet(waits);
          }
          s.add(wait);
          return s;
        });
    CompletableFuture<?> unused = wait.future.whenComplete(wait);
    try {
      wait.timer = timers.scheduleNanos(nanos, wait);
      if (wait.future.isDone()) {
        wait.timer.cancel(); // ended before its timer was known to its callback
      }
    } catch (RejectedExecutionException e) {
      wait.future.complete(false); // the backend's timer shut down: it is closing
    }
    if (closed) {
      wait.future.complete(false); // close() swept the map before this wait was in it
    }
    return wait.future;
  }

  /**
   * Wakes the oldest pending wait of {@code key} (one retry per process per release instead of one
   * per waiter: the woken waiter wins and announces its own release later, or loses to a holder
   * that will).
   *
   * @return whether a wait was woken
   */
  public boolean wakeOne(String key) {
    while (true) {
      Wait[] next = new Wait[1];
      byKey.computeIfPresent(
          key,
          (k, waits) -> {
            if (waits instanceof Wait only) {
              next[0] = only.future.isDone() ? null : only;
              return null;
            }
            LinkedHashSet<Wait> set = asSet(waits);
            var it = set.iterator();
            while (it.hasNext() && next[0] == null) {
              Wait w = it.next();
              it.remove();
              if (!w.future.isDone()) {
                next[0] = w;
              }
            }
            return set.isEmpty() ? null : set;
          });
      if (next[0] == null) {
        return false;
      }
      if (next[0].future.complete(true)) {
        return true;
      } // it ended meanwhile (timer, caller): try the next one
    }
  }

  /** Wakes every pending wait of {@code key}. */
  public void wakeAll(String key) {
    end(key, Long.MAX_VALUE, true);
  }

  /**
   * Wakes the pending waits of {@code key} stamped before {@code stamp} (all waits without a
   * stamp); later ones stay pending.
   */
  public void wakeAll(String key, long stamp) {
    end(key, stamp, true);
  }

  /**
   * Wakes every pending wait of every key: after the announcement channel (re)connects, releases
   * meanwhile cannot be ruled out (a spurious wake-up is allowed, a missed one is not).
   */
  public void wakeEveryKey() {
    for (String key : List.copyOf(byKey.keySet())) {
      end(key, Long.MAX_VALUE, true);
    }
  }

  /** Ends every pending wait with {@code false}; later waits answer {@code false} at once. */
  public void close() {
    closed = true;
    for (String key : List.copyOf(byKey.keySet())) {
      end(key, Long.MAX_VALUE, false);
    }
  }

  /** Whether {@link #close()} was called. */
  public boolean isClosed() {
    return closed;
  }

  /**
   * How long the pending waits of {@code key} may still last: from now until the latest {@code
   * maxWait} among them ends, on this registry's clock ({@link Duration#ZERO} once that has passed
   * while one is still pending); empty when none is pending. For a backend that tells its server
   * someone waits on a key, and for how long (Redis's waiter flag).
   */
  public Optional<Duration> pendingFor(String key) {
    if (!byKey.containsKey(key)) {
      return Optional.empty(); // nobody waits (the common acquire): no lambda, no lock
    }
    long[] latest = {Long.MIN_VALUE};
    boolean[] any = {false};
    byKey.computeIfPresent(
        key,
        (k, waits) -> {
          for (Wait w : waits instanceof Wait only ? List.of(only) : asSet(waits)) {
            if (!w.future.isDone()) {
              any[0] = true;
              latest[0] = Math.max(latest[0], w.endNanos);
            }
          }
          return waits;
        });
    return any[0]
        ? Optional.of(Duration.ofNanos(Math.max(0, latest[0] - timers.nanoTime())))
        : Optional.empty();
  }

  /** Whether no wait is pending on any key (a snapshot, like {@link #pendingFor}). */
  public boolean isEmpty() {
    return byKey.isEmpty();
  }

  /** The waits not yet ended, for "nothing left behind" checks. */
  public int pending() {
    int n = 0;
    for (Object waits : byKey.values()) {
      n += waits instanceof Wait ? 1 : asSet(waits).size(); // exact once quiet, when checks ask
    }
    return n;
  }

  private void end(String key, long before, boolean released) {
    if (!byKey.containsKey(key)) {
      return; // nobody waits (the common release): no list, no callback
    }
    List<Wait> ended = new ArrayList<>();
    byKey.computeIfPresent(
        key,
        (k, waits) -> {
          if (waits instanceof Wait only) {
            if (only.stamp < before) {
              ended.add(only);
              return null;
            }
            return only;
          }
          LinkedHashSet<Wait> set = asSet(waits);
          var it = set.iterator();
          while (it.hasNext()) {
            Wait w = it.next();
            if (w.stamp < before) {
              it.remove();
              ended.add(w);
            }
          }
          return set.isEmpty() ? null : set;
        });
    for (Wait w : ended) {
      w.future.complete(released);
    }
  }

  private void forget(String key, Wait wait) {
    byKey.computeIfPresent(
        key,
        (k, waits) -> {
          if (waits == wait) {
            return null;
          }
          if (waits instanceof Wait) {
            return waits; // another wait of the key
          }
          LinkedHashSet<Wait> set = asSet(waits);
          set.remove(wait);
          return set.isEmpty() ? null : set;
        });
  }
}
