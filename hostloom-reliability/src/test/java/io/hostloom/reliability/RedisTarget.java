package io.hostloom.reliability;

import io.hostloom.redis.RedisTestServer;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;

/**
 * A private {@code redis-server} (no persistence) from the Redis module's test fixture. Restarting
 * it loses every lease and fence counter: scenarios keep outages longer than their leases, so no
 * lease can still be valid when the empty server comes back (see the Redis README's caveat).
 */
final class RedisTarget implements RestartableTarget {
  private final RedisTestServer server = RedisTestServer.startNew();

  @Override
  public String name() {
    return "Redis";
  }

  @Override
  public BackendSpec spec() {
    return new BackendSpec("redis", server.uri(), Duration.ofSeconds(2));
  }

  @Override
  public InetSocketAddress endpoint() {
    return new InetSocketAddress(InetAddress.getLoopbackAddress(), server.port());
  }

  @Override
  public BackendSpec specThrough(String host, int port) {
    return spec().withAddress("redis://" + host + ":" + port);
  }

  @Override
  public long storedRecords() {
    return server.keyCount();
  }

  @Override
  public void stopServer(boolean crash) {
    if (crash) {
      server.kill();
    } else {
      server.stop();
    }
  }

  @Override
  public void startServer() {
    server.start();
  }

  @Override
  public void close() {
    server.close();
  }
}
