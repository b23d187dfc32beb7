package io.hostloom.shedlock;

import io.hostloom.locking.spi.LockBackend;
import io.hostloom.redis.RedisLockBackend;
import io.hostloom.redis.RedisTestServer;
import org.junit.jupiter.api.AfterAll;

/** The suite against a real {@code redis-server} (the Redis module's fixture). */
class RedisLockProviderTest extends LockProviderSuite {
  private static RedisTestServer server;
  private static RedisLockBackend backend;

  @Override
  protected synchronized LockBackend backend() {
    if (backend == null) {
      server = RedisTestServer.startNew();
      backend = RedisLockBackend.builder().uri(server.uri()).build();
    }
    return backend;
  }

  @AfterAll
  static void stop() {
    if (backend != null) {
      backend.close();
      server.close();
    }
  }
}
