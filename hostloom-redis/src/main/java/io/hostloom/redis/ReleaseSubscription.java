package io.hostloom.redis;

import io.lettuce.core.pubsub.RedisPubSubAdapter;
import io.lettuce.core.pubsub.StatefulRedisPubSubConnection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The release signal of one backend: a single pattern subscription ({@code PSUBSCRIBE
 * <prefix>{*}:released}) on a dedicated pub/sub connection, dispatched locally to waiters keyed by
 * release channel. A wait is a map entry plus a timer: no command is sent for it. Only the first
 * wait opens the connection and sends {@code PSUBSCRIBE}; the subscription then stays until {@link
 * #close()}, and Lettuce re-subscribes it after every reconnect.
 *
 * <p>Waits that begin before the first confirmation are held and answer {@code true} the moment it
 * arrives (the caller re-checks the key once the pattern is live, so even the first contended wait
 * of a fresh backend is woken by the release), or {@code false} if the start fails. Waits answer
 * {@code false} at once while the connection is known to be down or shortly after a failed start
 * (the caller polls), and {@code false} after their {@code maxWait}. A published release or replace
 * of a key wakes <b>one</b> of its waits in this backend (the oldest pending): waking every waiter
 * would cost one acquire attempt per waiter per release, of which one can win. The woken waiter
 * either wins and publishes its own release later, or loses to a holder that will; so the commands
 * per hand-off stay one release plus one attempt per process with waiters, whatever their number.
 * When the pattern is confirmed again after a reconnect, releases published while the connection
 * was down cannot be ruled out, so every pending wait answers {@code true} (a spurious wake-up: the
 * caller just retries).
 */
final class ReleaseSubscription extends RedisPubSubAdapter<String, String> {
  private static final Logger log = LoggerFactory.getLogger(ReleaseSubscription.class);

  /** After a failed start (no connection, PSUBSCRIBE refused or unanswered), the next try waits. */
  static final Duration RESTART_PAUSE = Duration.ofSeconds(1);

  private final LazyConnection<StatefulRedisPubSubConnection<String, String>> connection;
  private final String pattern;
  private final Duration commandTimeout;
  // per release channel, the waits not yet completed; a list is detached from the map when woken
  private final ConcurrentMap<String, List<CompletableFuture<Boolean>>> waiters =
      new ConcurrentHashMap<>();
  private final AtomicBoolean starting = new AtomicBoolean();
  private volatile StatefulRedisPubSubConnection<String, String> open; // our listener is on it
  private volatile boolean subscribed; // the pattern was confirmed at least once
  private int confirmations; // PSUBSCRIBE confirmations seen by the listener (one I/O thread)
  private volatile long notBeforeNanos = System.nanoTime();
  private volatile boolean closed;

  ReleaseSubscription(
      LazyConnection<StatefulRedisPubSubConnection<String, String>> connection,
      String pattern,
      Duration commandTimeout) {
    this.connection = connection;
    this.pattern = pattern;
    this.commandTimeout = commandTimeout;
  }

  /**
   * Waits for a message on {@code channel}, at most {@code maxWait} (positive). Never blocks and
   * never sends a command on the caller's path; the first call only starts the subscription.
   */
  CompletableFuture<Boolean> await(String channel, Duration maxWait) {
    if (closed) {
      return CompletableFuture.completedFuture(false);
    }
    boolean held = !subscribed;
    if (held) {
      // Not confirmed yet: the wait is held and answers true once the pattern is confirmed, so the
      // caller re-checks at once instead of sleeping its whole step; false if the start fails.
      start();
      if (!subscribed && !starting.get()) {
        return CompletableFuture.completedFuture(false); // failed a moment ago: poll for now
      }
    } else {
      StatefulRedisPubSubConnection<String, String> c = open;
      if (c == null || !c.isOpen()) {
        return CompletableFuture.completedFuture(false); // down: Lettuce is reconnecting
      }
    }
    CompletableFuture<Boolean> f = new CompletableFuture<>();
    waiters.compute(
        channel,
        (k, list) -> {
          List<CompletableFuture<Boolean>> l = list != null ? list : new ArrayList<>(2);
          synchronized (l) {
            l.add(f);
          }
          return l;
        });
    // the JDK's shared delayer, which drops the timer when f completes first (cancel included)
    f.completeOnTimeout(false, nanos(maxWait), TimeUnit.NANOSECONDS);
    var unused = f.whenComplete((v, t) -> remove(channel, f));
    if (closed) {
      f.complete(false); // close() swept the map before f was in it
    } else if (held && subscribed) {
      f.complete(true); // confirmed while f was being registered: re-check now
    } else if (held && !starting.get()) {
      f.complete(false); // the start failed while f was being registered
    }
    return f;
  }

  private void remove(String channel, CompletableFuture<Boolean> f) {
    waiters.computeIfPresent(
        channel,
        (k, l) -> {
          synchronized (l) {
            l.remove(f);
            return l.isEmpty() ? null : l;
          }
        });
  }

  /**
   * A release of {@code channel} was announced: wakes one of its waits (the oldest still pending).
   * Waking all would send one acquire attempt per waiter per release, of which one can win; the
   * woken waiter either wins (and announces its own release later) or loses to a holder that will.
   */
  private void wakeOne(String channel) {
    while (true) {
      CompletableFuture<Boolean> next = null;
      List<CompletableFuture<Boolean>> l = waiters.get(channel);
      if (l == null) {
        return;
      }
      synchronized (l) {
        for (CompletableFuture<Boolean> f : l) {
          if (!f.isDone()) {
            next = f;
            break;
          }
        }
      }
      if (next == null) {
        return;
      }
      if (next.complete(true)) {
        return; // its whenComplete removed it
      }
    }
  }

  private void wake(String channel, boolean value) {
    List<CompletableFuture<Boolean>> woken = waiters.remove(channel);
    if (woken != null) {
      List<CompletableFuture<Boolean>> copy;
      synchronized (woken) {
        copy = List.copyOf(woken);
      }
      for (CompletableFuture<Boolean> f : copy) {
        f.complete(value);
      }
    }
  }

  private void wakeAll(boolean value) {
    for (String channel : List.copyOf(waiters.keySet())) {
      wake(channel, value);
    }
  }

  /** Opens the connection and sends PSUBSCRIBE, once at a time; failures only delay a retry. */
  private void start() {
    if (closed || System.nanoTime() - notBeforeNanos < 0 || !starting.compareAndSet(false, true)) {
      return;
    }
    try {
      var unused =
          connection
              .get()
              .thenCompose(
                  c -> {
                    listenTo(c);
                    return c.async().psubscribe(pattern).toCompletableFuture();
                  })
              .orTimeout(commandTimeout.toNanos(), TimeUnit.NANOSECONDS)
              .whenComplete(
                  (v, t) -> {
                    if (t == null) {
                      confirmed(); // the reply is the confirmation (the listener may come later)
                      starting.set(false);
                    } else {
                      failedStart(t);
                    }
                  });
    } catch (RuntimeException e) {
      failedStart(e);
    }
  }

  private void failedStart(Throwable t) {
    notBeforeNanos = System.nanoTime() + RESTART_PAUSE.toNanos();
    starting.set(false);
    log.debug("release subscription not started: {}", t.toString());
    if (!subscribed) {
      wakeAll(false); // the waits held for the confirmation poll
    }
  }

  /**
   * The pattern is live for the first time: the waits held meanwhile re-check now (a release may
   * have come before the pattern was live).
   */
  private synchronized void confirmed() {
    if (!subscribed) {
      subscribed = true;
      wakeAll(true);
    }
  }

  private synchronized void listenTo(StatefulRedisPubSubConnection<String, String> c) {
    if (open != c) {
      c.addListener(this);
      open = c;
    }
  }

  @Override
  public void psubscribed(String confirmed, long count) {
    if (!pattern.equals(confirmed)) {
      return;
    }
    if (++confirmations == 1) {
      confirmed();
    } else {
      wakeAll(true); // re-subscribed after a reconnect: a release may have been missed meanwhile
    }
  }

  @Override
  public void message(String matched, String channel, String message) {
    wakeOne(channel);
  }

  /** Whether waits are registered now (the pattern is confirmed and the connection is up). */
  boolean isSubscribed() {
    StatefulRedisPubSubConnection<String, String> c = open;
    return subscribed && !closed && c != null && c.isOpen();
  }

  /** The waits still pending, for "nothing left behind" checks. */
  int waiterCount() {
    int n = 0;
    for (List<CompletableFuture<Boolean>> l : waiters.values()) {
      n += l.size();
    }
    return n;
  }

  /**
   * Ends every pending wait with {@code false} and closes the connection (if ours).
   *
   * @return completes when the connection is closed
   */
  CompletableFuture<Void> close() {
    closed = true;
    wakeAll(false);
    return connection.close();
  }

  private static long nanos(Duration d) {
    try {
      return d.toNanos();
    } catch (ArithmeticException e) {
      return Long.MAX_VALUE; // longer than 292 years: as good as forever
    }
  }
}
