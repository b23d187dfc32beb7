package io.hostloom.redis;

import io.hostloom.locking.spi.support.ReleaseWaitRegistry;
import io.hostloom.locking.time.LockClock;
import io.lettuce.core.pubsub.RedisPubSubAdapter;
import io.lettuce.core.pubsub.StatefulRedisPubSubConnection;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The release signal of one backend: a single pattern subscription ({@code PSUBSCRIBE
 * <prefix>{*}:released}) on a dedicated pub/sub connection, dispatched locally to waiters keyed by
 * release channel through the kernel's {@link ReleaseWaitRegistry}. A wait is a registry entry plus
 * a timer: no command is sent for it. Only the first wait opens the connection and sends {@code
 * PSUBSCRIBE}; the subscription then stays until {@link #close()}, and Lettuce re-subscribes it
 * after every reconnect.
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

  // per release channel, the waits not yet ended (timers, wake one, wake all, close)
  /** The message of a release that wakes every wait of its key ({@link ReadWriteScripts}). */
  static final String WAKE_ALL = "released-all";

  private final ReleaseWaitRegistry waits = new ReleaseWaitRegistry(LockClock.system());
  // the waits begun before the first confirmation: true once it comes, false if the start fails
  private final Set<CompletableFuture<Boolean>> held = ConcurrentHashMap.newKeySet();
  private final AtomicBoolean starting = new AtomicBoolean();
  private volatile StatefulRedisPubSubConnection<String, String> open; // our listener is on it
  private volatile boolean subscribed; // the pattern was confirmed at least once
  private int confirmations; // PSUBSCRIBE confirmations seen by the listener (one I/O thread)
  private volatile long notBeforeNanos = System.nanoTime();
  private volatile CompletableFuture<Void> lastStart; // the latest start's outcome
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
    CompletableFuture<Boolean> f = waits.await(channel, maxWait);
    if (held) {
      this.held.add(f);
      var unused = f.whenComplete((v, t) -> this.held.remove(f));
    }
    if (closed) {
      f.complete(false); // close() swept the registry before f was in it
    } else if (held && subscribed) {
      f.complete(true); // confirmed while f was being registered: re-check now
    } else if (held && !starting.get()) {
      f.complete(false); // the start failed while f was being registered
    }
    return f;
  }

  /** How long the pending waits on {@code channel} may still last; empty when none is pending. */
  /** Whether no wait is pending here at all (then no key's horizon needs its channel name). */
  boolean noWaits() {
    return waits.isEmpty();
  }

  Optional<Duration> pendingFor(String channel) {
    return waits.pendingFor(channel);
  }

  /**
   * Starts the subscription now (for a warm-up) and completes when the pattern is confirmed, or
   * exceptionally when this start (or, within {@link #RESTART_PAUSE} of one, the last) failed.
   */
  CompletableFuture<Void> subscribe() {
    if (subscribed) {
      return CompletableFuture.completedFuture(null);
    }
    start();
    CompletableFuture<Void> s = lastStart;
    return s != null ? s : CompletableFuture.completedFuture(null);
  }

  /** Opens the connection and sends PSUBSCRIBE, once at a time; failures only delay a retry. */
  private void start() {
    if (closed || System.nanoTime() - notBeforeNanos < 0 || !starting.compareAndSet(false, true)) {
      return;
    }
    CompletableFuture<Void> reported = new CompletableFuture<>(); // after our own bookkeeping
    lastStart = reported;
    CompletableFuture<Void> outcome = new CompletableFuture<>();
    var unusedOutcome =
        outcome.whenComplete(
            (v, t) -> {
              if (t == null) {
                confirmed(); // the reply is the confirmation (the listener may come later)
                starting.set(false);
                reported.complete(null);
              } else {
                failedStart(t);
                reported.completeExceptionally(t);
              }
            });
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
                      outcome.complete(null);
                    } else {
                      outcome.completeExceptionally(t);
                    }
                  });
    } catch (RuntimeException e) {
      outcome.completeExceptionally(e);
    }
  }

  private void failedStart(Throwable t) {
    notBeforeNanos = System.nanoTime() + RESTART_PAUSE.toNanos();
    starting.set(false);
    log.debug("release subscription not started: {}", t.toString());
    if (!subscribed) {
      for (CompletableFuture<Boolean> f : List.copyOf(held)) {
        f.complete(false); // the waits held for the confirmation poll
      }
    }
  }

  /**
   * The pattern is live for the first time: the waits held meanwhile re-check now (a release may
   * have come before the pattern was live).
   */
  private synchronized void confirmed() {
    if (!subscribed) {
      subscribed = true;
      waits.wakeEveryKey(); // every wait so far was held
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
      waits.wakeEveryKey(); // re-subscribed after a reconnect: a release may have been missed
    }
  }

  @Override
  public void message(String matched, String channel, String message) {
    if (WAKE_ALL.equals(message)) {
      waits.wakeAll(channel); // a reader-writer key: readers and writers wait on it alike
    } else {
      waits.wakeOne(channel);
    }
  }

  /** Whether waits are registered now (the pattern is confirmed and the connection is up). */
  boolean isSubscribed() {
    StatefulRedisPubSubConnection<String, String> c = open;
    return subscribed && !closed && c != null && c.isOpen();
  }

  /** The waits still pending, for "nothing left behind" checks. */
  int waiterCount() {
    return waits.pending();
  }

  /**
   * Ends every pending wait with {@code false} and closes the connection (if ours).
   *
   * @return completes when the connection is closed
   */
  CompletableFuture<Void> close() {
    closed = true;
    waits.close();
    return connection.close();
  }
}
