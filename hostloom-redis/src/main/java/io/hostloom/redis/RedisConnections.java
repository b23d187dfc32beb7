package io.hostloom.redis;

import io.lettuce.core.ClientOptions;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.SocketOptions;
import io.lettuce.core.TimeoutOptions;
import io.lettuce.core.api.StatefulConnection;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.pubsub.StatefulRedisPubSubConnection;
import io.lettuce.core.resource.ClientResources;
import io.lettuce.core.resource.DefaultClientResources;
import io.lettuce.core.resource.Delay;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * What a builder source turns into: how to open the script connection and the pub/sub connection,
 * and what {@code close()} must shut down. Only a client created here is ever shut down; a user's
 * client or connection is left alone.
 *
 * @param commands the connection scripts go over
 * @param pubSub the connection release notifications arrive on; null without a client
 * @param shutdown shuts down what this module created (after both connections closed)
 */
record RedisConnections(
    LazyConnection<ScriptClient.Link> commands,
    LazyConnection<StatefulRedisPubSubConnection<String, String>> pubSub,
    Supplier<CompletableFuture<?>> shutdown) {

  private static final Wtf8Codec CODEC = Wtf8Codec.INSTANCE;

  /** A user's open connection: used as is, never closed, no pub/sub. */
  static RedisConnections of(ScriptClient.Link link) {
    return new RedisConnections(LazyConnection.of(link), null, RedisConnections::nothing);
  }

  /** A user's cluster client: connects with its seed URIs; never shut down here. */
  static RedisConnections of(RedisClusterClient c, Duration timeout) {
    return new RedisConnections(
        new LazyConnection<>(
            () ->
                c.refreshPartitionsAsync() // connectAsync needs a known topology
                    .thenCompose(v -> c.connectAsync(CODEC))
                    .thenApply(s -> new ScriptClient.Link(s, s.async()))
                    .toCompletableFuture(),
            l -> l.connection().closeAsync(),
            timeout),
        new LazyConnection<>(
            () ->
                c.refreshPartitionsAsync()
                    .thenCompose(v -> c.connectPubSubAsync(CODEC))
                    .<StatefulRedisPubSubConnection<String, String>>thenApply(s -> s)
                    .toCompletableFuture(),
            StatefulConnection::closeAsync,
            timeout),
        RedisConnections::nothing);
  }

  /** A user's client, connecting to {@code uri}; never shut down here. */
  static RedisConnections of(RedisClient c, RedisURI uri, Duration timeout) {
    return of(c, uri, timeout, RedisConnections::nothing);
  }

  /**
   * A client of our own for {@code uri}: reconnects by itself (quickly: a lock waiter should not
   * wait 30 s for a restarted server), rejects commands issued while disconnected so none is queued
   * for later, and bounds connecting and commands by {@code timeout}. Commands in flight at a
   * disconnect may still be re-sent by Lettuce; the scripts are safe to re-send.
   */
  static RedisConnections owned(RedisURI uri, Duration timeout) {
    ClientResources resources =
        DefaultClientResources.builder()
            .reconnectDelay(
                Delay.exponential(
                    Duration.ofMillis(10), Duration.ofSeconds(1), 2, TimeUnit.MILLISECONDS))
            .build();
    RedisClient own = RedisClient.create(resources);
    own.setOptions(
        ClientOptions.builder()
            .autoReconnect(true)
            .disconnectedBehavior(ClientOptions.DisconnectedBehavior.REJECT_COMMANDS)
            .socketOptions(SocketOptions.builder().connectTimeout(timeout).build())
            .timeoutOptions(TimeoutOptions.enabled(timeout))
            .build());
    return of(
        own,
        uri,
        timeout,
        () ->
            own.shutdownAsync(0, 2, TimeUnit.SECONDS)
                .handle((v, t) -> null)
                .thenCompose(v -> shutdown(resources)));
  }

  private static RedisConnections of(
      RedisClient c, RedisURI uri, Duration timeout, Supplier<CompletableFuture<?>> shutdown) {
    return new RedisConnections(
        new LazyConnection<>(
            () ->
                c.connectAsync(CODEC, uri)
                    .toCompletableFuture()
                    .thenApply(s -> new ScriptClient.Link(s, s.async())),
            l -> l.connection().closeAsync(),
            timeout),
        new LazyConnection<>(
            () -> c.connectPubSubAsync(CODEC, uri).toCompletableFuture(),
            StatefulConnection::closeAsync,
            timeout),
        shutdown);
  }

  private static CompletableFuture<Void> shutdown(ClientResources resources) {
    CompletableFuture<Void> done = new CompletableFuture<>();
    resources.shutdown(0, 2, TimeUnit.SECONDS).addListener(f -> done.complete(null));
    return done;
  }

  private static CompletableFuture<?> nothing() {
    return CompletableFuture.completedFuture(null);
  }
}
