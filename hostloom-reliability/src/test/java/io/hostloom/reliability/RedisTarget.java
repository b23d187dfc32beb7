package io.hostloom.reliability;

import io.hostloom.redis.RedisTestServer;

/**
 * A private {@code redis-server} (no persistence) from the Redis module's test fixture. Restarting
 * it loses every lease and fence counter: scenarios keep outages longer than their leases, so no
 * lease can still be valid when the empty server comes back (see the Redis README's caveat).
 */
final class RedisTarget extends ServerTarget {
  private final RedisTestServer server;

  RedisTarget() {
    this(RedisTestServer.startNew());
  }

  private RedisTarget(RedisTestServer server) {
    super(
        "Redis",
        "redis",
        server.uri(),
        server.port(),
        server::start,
        server::stop,
        server::kill,
        server::close);
    this.server = server;
  }

  @Override
  public long storedRecords() {
    return server.keyCount();
  }
}
