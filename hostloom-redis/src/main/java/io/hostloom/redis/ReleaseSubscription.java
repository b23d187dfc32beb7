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
 * <p>Waits answer {@code false} at once while the subscription is not confirmed or the connection
 * is known to be down (the caller polls), {@code true} when a release or replace of their key is
 * published, and {@code false} after their {@code maxWait}. When the pattern is confirmed again
 * after a reconnect, releases published while the connection was down cannot be ruled out, so every
 * pending wait answers {@code true} (a spurious wake-up: the caller just retries).
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
    StatefulRedisPubSubConnection<String, String> c = open;
    if (closed || !subscribed || c == null || !c.isOpen()) {
      if (!subscribed) {
        start(); // once subscribed, Lettuce re-subscribes after reconnecting by itself
      }
      return CompletableFuture.completedFuture(false);
    }
    CompletableFuture<Boolean> f = new CompletableFuture<>();
    waiters.compute(
        channel,
        (k, list) -> {
          List<CompletableFuture<Boolean>> l = list != null ? list : new ArrayList<>(2);
          l.add(f);
          return l;
        });
    // the JDK's shared delayer, which drops the timer when f completes first (cancel included)
    f.completeOnTimeout(false, nanos(maxWait), TimeUnit.NANOSECONDS);
    var unused = f.whenComplete((v, t) -> remove(channel, f));
    if (closed) {
      f.complete(false); // close() swept the map before f was in it
    }
    return f;
  }

  private void remove(String channel, CompletableFuture<Boolean> f) {
    waiters.computeIfPresent(
        channel,
        (k, l) -> {
          l.remove(f);
          return l.isEmpty() ? null : l;
        });
  }

  private void wake(String channel, boolean value) {
    List<CompletableFuture<Boolean>> woken = waiters.remove(channel);
    if (woken != null) {
      for (CompletableFuture<Boolean> f : woken) {
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
                    if (t != null) {
                      notBeforeNanos = System.nanoTime() + RESTART_PAUSE.toNanos();
                      log.debug("release subscription not started: {}", t.toString());
                    }
                    starting.set(false);
                  });
    } catch (RuntimeException e) {
      notBeforeNanos = System.nanoTime() + RESTART_PAUSE.toNanos();
      starting.set(false);
      log.debug("release subscription not started: {}", e.toString());
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
    boolean again = subscribed;
    subscribed = true;
    if (again) {
      wakeAll(true); // re-subscribed after a reconnect: a release may have been missed meanwhile
    }
  }

  @Override
  public void message(String matched, String channel, String message) {
    wake(channel, true);
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
