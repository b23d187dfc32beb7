package io.hostloom.redis;

import io.hostloom.locking.spi.ReleaseSignal;
import io.hostloom.locking.testing.ForwardingLockBackend;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;

/**
 * A {@link RedisLockBackend} without its {@link io.hostloom.locking.spi.PermitLeases} view (its
 * release signal kept): semaphores over it use the generic slot construction. Closes the backend.
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
