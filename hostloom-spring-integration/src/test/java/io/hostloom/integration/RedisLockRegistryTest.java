package io.hostloom.integration;

import io.hostloom.locking.spi.LockBackend;
import io.hostloom.redis.RedisLockBackend;
import io.hostloom.redis.RedisTestServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/** The registry contract over a real {@code redis-server} on a free port. */
class RedisLockRegistryTest extends LockRegistryContract {
  private static RedisTestServer server;
  private static RedisLockBackend backend;

  @BeforeAll
  static void startRedis() {
    server = RedisTestServer.startNew();
    backend = RedisLockBackend.builder().uri(server.uri()).build();
  }

  @AfterAll
  static void stopRedis() {
    if (backend != null) {
      backend.close();
    }
    if (server != null) {
      server.close();
    }
  }

  @Override
  protected LockBackend backend() {
    return backend;
  }
}
