package io.hostloom.redis;

import io.hostloom.locking.spi.LockBackend;
import io.hostloom.testkit.semaphore.PermitViewSuite;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

/** The backend-neutral view contract ({@link PermitViewSuite}) on a real Redis server. */
class RedisPermitViewTest extends PermitViewSuite {
  private final RedisServerProcess redis = RedisServerProcess.shared();
  private RedisLockBackend backend;
  private RedisLockBackend peer;

  @BeforeEach
  void open() {
    backend = RedisLockBackend.builder().uri(redis.uri()).build();
  }

  @AfterEach
  void close() {
    backend.close();
    if (peer != null) {
      peer.close();
    }
  }

  @Override
  protected LockBackend backend() {
    return backend;
  }

  @Override
  protected void awaitSignalReady(LockBackend instance) {
    ReleaseSignalTest.awaitSubscribed((RedisLockBackend) instance);
  }
}
