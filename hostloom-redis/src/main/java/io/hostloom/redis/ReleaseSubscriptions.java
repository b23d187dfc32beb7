package io.hostloom.redis;

import io.lettuce.core.pubsub.RedisPubSubAdapter;
import io.lettuce.core.pubsub.StatefulRedisPubSubConnection;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The waiters of {@link ReleaseNotifier#nextRelease}, keyed by release channel, over one pub/sub
 * connection. A channel is subscribed while it has at least one waiter. Subscribe and unsubscribe
 * commands are sent inside the map's per-channel update, so they reach the server in the order the
 * waiter set changed. Any failure (no connection, a lost subscription) only means a waiter is not
 * woken early: it still ends when its caller stops waiting.
 */
final class ReleaseSubscriptions extends RedisPubSubAdapter<String, String> {
  private static final Logger log = LoggerFactory.getLogger(ReleaseSubscriptions.class);

  /** One waiting future; identity is what the waiter sets compare. */
  private static final class Waiter {
    final CompletableFuture<Void> future = new CompletableFuture<>();
  }

  private final LazyConnection<StatefulRedisPubSubConnection<String, String>> connection;
  private final ConcurrentMap<String, Set<Waiter>> waiters = new ConcurrentHashMap<>();
  private volatile StatefulRedisPubSubConnection<String, String> open;

  ReleaseSubscriptions(LazyConnection<StatefulRedisPubSubConnection<String, String>> connection) {
    this.connection = connection;
  }

  CompletableFuture<Void> next(String channel) {
    Waiter waiter = new Waiter();
    waiters.compute(
        channel,
        (c, set) -> {
          Set<Waiter> s = set;
          if (s == null) {
            s = ConcurrentHashMap.newKeySet();
            send(c, true);
          }
          s.add(waiter);
          return s;
        });
    if (open == null) {
      connect();
    }
    // cleanup runs however the waiter's future ends: a release, the caller's cancel, close()
    var unused = waiter.future.whenComplete((v, t) -> remove(channel, waiter));
    return waiter.future;
  }

  private void remove(String channel, Waiter waiter) {
    waiters.computeIfPresent(
        channel,
        (c, set) -> {
          set.remove(waiter);
          if (set.isEmpty()) {
            send(c, false);
            return null;
          }
          return set;
        });
  }

  private void connect() {
    var unused =
        connection
            .get()
            .whenComplete(
                (conn, t) -> {
                  if (t != null) {
                    log.debug("release notifications unavailable: {}", t.toString());
                  } else {
                    opened(conn);
                  }
                });
  }

  private void opened(StatefulRedisPubSubConnection<String, String> conn) {
    synchronized (this) {
      if (open == conn) {
        return;
      }
      conn.addListener(this);
      open = conn;
    }
    // channels that got waiters before the connection was open
    for (String channel : List.copyOf(waiters.keySet())) {
      waiters.computeIfPresent(
          channel,
          (c, set) -> {
            send(c, true);
            return set;
          });
    }
  }

  // runs inside the map's per-channel update: never blocks (dispatch only writes to the socket)
  private void send(String channel, boolean subscribe) {
    StatefulRedisPubSubConnection<String, String> conn = open;
    if (conn == null) {
      return;
    }
    try {
      var unused =
          (subscribe ? conn.async().subscribe(channel) : conn.async().unsubscribe(channel))
              .exceptionally(
                  t -> {
                    log.debug(
                        "{} failed: {}", subscribe ? "SUBSCRIBE" : "UNSUBSCRIBE", t.toString());
                    return null;
                  });
    } catch (RuntimeException e) {
      log.debug("pub/sub command failed: {}", e.toString());
    }
  }

  @Override
  public void message(String channel, String message) {
    Set<Waiter> set = waiters.get(channel);
    if (set != null) {
      for (Waiter waiter : List.copyOf(set)) {
        waiter.future.complete(null);
      }
    }
  }

  /**
   * Ends every wait (they complete normally, as a spurious wake-up) and closes the connection.
   *
   * @return completes when the connection is closed
   */
  CompletableFuture<Void> close() {
    for (Set<Waiter> set : List.copyOf(waiters.values())) {
      for (Waiter waiter : List.copyOf(set)) {
        waiter.future.complete(null);
      }
    }
    return connection.close();
  }
}
