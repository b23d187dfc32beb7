package io.hostloom.redis;

import io.hostloom.locking.spi.ReleaseSignal;
import io.hostloom.locking.testing.ForwardingLockBackend;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;

/**
 * A {@link RedisLockBackend} without its native capabilities ({@link
 * io.hostloom.locking.spi.PermitLeases}, {@link io.hostloom.locking.spi.ReadWriteLeases}; its
 * release signal kept): semaphores and reader-writer locks over it use the generic constructions.
 * Closes the backend.
 */
final class WithoutPermitView extends ForwardingLockBackend
    implements ReleaseSignal, AutoCloseable {
  private final RedisLockBackend redis;

  WithoutPermitView(RedisLockBackend redis) {
    super(redis);
    this.redis = redis;
  }

  @Override
  public CompletableFuture<Boolean> awaitRelease(String key, Duration maxWait) {
    return redis.awaitRelease(key, maxWait);
  }

  @Override
  public void close() {
    redis.close();
  }
}
