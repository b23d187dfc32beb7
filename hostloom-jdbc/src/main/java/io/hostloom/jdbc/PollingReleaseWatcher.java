package io.hostloom.jdbc;

import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

/**
 * Release waits for engines without LISTEN/NOTIFY: each wait reads the key's {@link State} on the
 * backend's own bounded path, at once, then after {@value #FIRST_POLL_MILLIS} ms and at doubling
 * intervals capped at {@value #MAX_POLL_MILLIS} ms. It signals {@code true} when the key went from
 * granted (token T, not released) to released, to another token (replaced, or expired and granted
 * again) or to no row (purged); an expiry alone changes nothing and signals nothing, as on
 * PostgreSQL. So the hand-off latency is at most the interval current when the release happened,
 * and each waiting caller costs one read per interval. The first read is the wait's baseline, and
 * it is queued like any call, so it may answer after a change it should see: a release is still
 * seen (a tombstone younger than the wait counts as a release after the wait's start), a replace is
 * not (it leaves a live row with a new token, which a grant just before the wait leaves too:
 * counting it would wake every fresh wait spuriously). Such a missed replace is a missed signal,
 * which the SPI allows: the waiter moves on at its retry step. {@link #unobservedWaits()} says how
 * many waits have no baseline yet. A failed read is skipped (the next one follows on schedule); the
 * wait itself, its {@code maxWait} and its end at close are the backend's {@code
 * ReleaseWaitRegistry}'s.
 */
final class PollingReleaseWatcher implements ReleaseWaits {
  static final long FIRST_POLL_MILLIS = 5;
  static final long MAX_POLL_MILLIS = 200;

  /**
   * What one poll saw of a key's row: its token, whether it is a release's tombstone, and for a
   * tombstone how long ago (server clock, µs) it was released; and a digest of the key's native
   * view entries ({@code ""}: none looked at), whose change is announced as a release (a view key
   * with no lock row reads as token 0, not released).
   */
  record State(long token, boolean released, long releasedMicrosAgo, String views) {
    /** A lock row only. */
    State(long token, boolean released, long releasedMicrosAgo) {
      this(token, released, releasedMicrosAgo, "");
    }
  }

  private final Function<String, CompletableFuture<Optional<State>>> read;
  private final ScheduledExecutorService timer;
  private final AtomicInteger unobserved = new AtomicInteger();
  private volatile boolean closed;

  PollingReleaseWatcher(
      Function<String, CompletableFuture<Optional<State>>> read, ScheduledExecutorService timer) {
    this.read = read;
    this.timer = timer;
  }

  @Override
  public boolean isListening() {
    return !closed;
  }

  @Override
  public void started(String storedKey, CompletableFuture<Boolean> wait) {
    Poll p = new Poll(storedKey, System.nanoTime(), wait);
    unobserved.incrementAndGet();
    var unused = wait.whenComplete((v, e) -> p.observed());
    p.poll(FIRST_POLL_MILLIS);
  }

  /** Waits pending whose first read has not answered yet (their baseline is not set). */
  int unobservedWaits() {
    return unobserved.get();
  }

  @Override
  public void close() {
    closed = true;
  }

  /** The reads of one wait, one at a time, until the wait ends (woken, maxWait, closed). */
  private final class Poll {
    final String key;
    final long startNanos;
    final CompletableFuture<Boolean> signal;
    Optional<State> previous; // null before the first answer
    private final AtomicBoolean baselineSet = new AtomicBoolean();

    Poll(String key, long startNanos, CompletableFuture<Boolean> signal) {
      this.key = key;
      this.startNanos = startNanos;
      this.signal = signal;
    }

    void schedule(long delayMillis) {
      if (signal.isDone()) {
        return;
      }
      try {
        var unused =
            timer.schedule(
                () -> poll(Math.min(MAX_POLL_MILLIS, delayMillis * 2)),
                delayMillis,
                TimeUnit.MILLISECONDS);
      } catch (RejectedExecutionException e) {
        signal.complete(false);
      }
    }

    /** Reads once; the next read follows {@code nextMillis} after the answer. */
    void poll(long nextMillis) {
      if (signal.isDone()) {
        return;
      }
      if (closed) {
        signal.complete(false);
        return;
      }
      CompletableFuture<?> unused =
          read.apply(key)
              .whenComplete(
                  (state, failure) -> {
                    boolean released = failure == null && released(state);
                    if (failure == null) {
                      observed();
                    }
                    if (released) {
                      signal.complete(true);
                    } else {
                      schedule(nextMillis);
                    }
                  });
    }

    /** The first answer set the baseline, or the wait ended without one. */
    void observed() {
      if (baselineSet.compareAndSet(false, true)) {
        unobserved.decrementAndGet();
      }
    }

    boolean released(Optional<State> now) {
      Optional<State> before = previous;
      previous = now;
      if (before == null) {
        // the first read may answer after a release that followed this wait's start: a
        // tombstone younger than the wait counts (at worst a spurious signal, never a missed one)
        long waitedMicros = (System.nanoTime() - startNanos) / 1000;
        return now.isPresent()
            && now.get().released()
            && now.get().releasedMicrosAgo() < waitedMicros;
      }
      String viewsBefore = before.map(State::views).orElse("0:0");
      String viewsNow = now.map(State::views).orElse("0:0");
      if (!viewsBefore.isEmpty() && !viewsNow.isEmpty() && !viewsBefore.equals(viewsNow)) {
        return true; // a view entry went (or came: spurious at worst)
      }
      if (before.isEmpty() || before.get().released()) {
        return false;
      }
      return now.isEmpty() || now.get().released() || now.get().token() != before.get().token();
    }
  }
}
