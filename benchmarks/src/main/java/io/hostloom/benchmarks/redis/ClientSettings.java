package io.hostloom.benchmarks.redis;

import io.lettuce.core.ClientOptions;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.SocketOptions;
import io.lettuce.core.TimeoutOptions;
import io.lettuce.core.resource.ClientResources;
import io.lettuce.core.resource.DefaultClientResources;
import java.time.Duration;
import java.util.List;

/**
 * The settings every peer gets: one Redis, the same timeouts, the same number of I/O threads, the
 * same lease. Each peer builds its own client from these (no sharing between peers), so one peer's
 * queue never delays another's commands.
 *
 * @param host Redis host (loopback)
 * @param port Redis port
 * @param commandTimeout bound on every command
 * @param connectTimeout bound on connecting
 * @param ioThreads Netty event-loop threads per client (Lettuce I/O threads, Redisson nettyThreads)
 * @param lease the lease (TTL) every lock is taken with; long enough never to expire in a run
 * @param pollInterval the retry step of harness-driven polling (libraries with no wait of their
 *     own)
 */
public record ClientSettings(
    String host,
    int port,
    Duration commandTimeout,
    Duration connectTimeout,
    int ioThreads,
    Duration lease,
    Duration pollInterval) {

  /** The settings of the side-by-side run against {@code host:port}. */
  public static ClientSettings standard(String host, int port) {
    return new ClientSettings(
        host,
        port,
        Duration.ofSeconds(5),
        Duration.ofSeconds(5),
        2,
        Duration.ofSeconds(30),
        Duration.ofMillis(50));
  }

  public String uri() {
    return "redis://" + host + ":" + port;
  }

  /** Lettuce resources with {@link #ioThreads} I/O and computation threads. */
  public ClientResources lettuceResources() {
    return DefaultClientResources.builder()
        .ioThreadPoolSize(ioThreads)
        .computationThreadPoolSize(ioThreads)
        .build();
  }

  /**
   * The client options HostLoom's backend sets on a client it owns (reconnect, reject while
   * disconnected, connect and command timeouts); used for every Lettuce-based peer.
   */
  public ClientOptions lettuceOptions() {
    return ClientOptions.builder()
        .autoReconnect(true)
        .disconnectedBehavior(ClientOptions.DisconnectedBehavior.REJECT_COMMANDS)
        .socketOptions(SocketOptions.builder().connectTimeout(connectTimeout).build())
        .timeoutOptions(TimeoutOptions.enabled(commandTimeout))
        .build();
  }

  /** A new Lettuce client with {@link #lettuceResources()} and {@link #lettuceOptions()}. */
  public RedisClient lettuceClient(ClientResources resources) {
    RedisURI uri = RedisURI.create(uri());
    uri.setTimeout(commandTimeout);
    RedisClient client = RedisClient.create(resources, uri);
    client.setOptions(lettuceOptions());
    return client;
  }

  /** The shared part of every peer's configuration line. */
  public List<String> describe() {
    return List.of(
        "Redis " + uri() + " (one server for all peers)",
        "command timeout "
            + commandTimeout.toMillis()
            + " ms, connect timeout "
            + connectTimeout.toMillis()
            + " ms",
        ioThreads + " Netty I/O threads per client",
        "lease (TTL) " + lease.toSeconds() + " s, no automatic renewal");
  }
}
