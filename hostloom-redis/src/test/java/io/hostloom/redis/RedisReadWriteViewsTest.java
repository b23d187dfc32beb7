package io.hostloom.redis;

import io.hostloom.locking.spi.LockBackend;
import io.hostloom.testkit.rwlock.ReadWriteViewsSuite;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

/** The backend-neutral view contract ({@link ReadWriteViewsSuite}) on a real Redis server. */
class RedisReadWriteViewsTest extends ReadWriteViewsSuite {
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
  protected LockBackend otherBackend() {
    if (peer == null) {
      peer = RedisLockBackend.builder().uri(redis.uri()).build();
    }
    return peer;
  }

  @Override
  protected void awaitSignalReady(LockBackend instance) {
    ReleaseSignalTest.awaitSubscribed((RedisLockBackend) instance);
  }
}
