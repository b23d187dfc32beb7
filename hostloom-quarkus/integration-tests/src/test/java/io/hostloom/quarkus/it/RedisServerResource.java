package io.hostloom.quarkus.it;

import io.hostloom.redis.RedisTestServer;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import java.util.Map;

/**
 * A real {@code redis-server} on a free port for the application under test (hostloom-redis' test
 * launcher), its address passed as {@code hostloom.redis.uri}. Every @QuarkusTest class of this
 * module shares it and the one application boot.
 */
public class RedisServerResource implements QuarkusTestResourceLifecycleManager {
  private static volatile RedisTestServer server;

  @Override
  public Map<String, String> start() {
    server = RedisTestServer.startNew();
    return Map.of("hostloom.redis.uri", server.uri());
  }

  @Override
  public void stop() {
    if (server != null) {
      server.close();
    }
  }

  /** The running server, for tests that stop and restart it. */
  static RedisTestServer server() {
    return server;
  }
}
