package io.hostloom.quarkus.internal;

import io.hostloom.locking.spi.LockBackend;
import io.hostloom.quarkus.HostLoomConfig;
import io.hostloom.redis.RedisLockBackend;

/** {@code hostloom.backend=redis}: a {@link RedisLockBackend} owning its Lettuce client. */
final class RedisFactory {
  private RedisFactory() {}

  static LockBackend create(HostLoomConfig.Redis c) {
    RedisLockBackend.Builder b =
        RedisLockBackend.builder()
            .uri(Backends.required(c.uri(), "hostloom.redis.uri", "redis://localhost:6379"));
    c.commandTimeout().ifPresent(b::commandTimeout);
    c.healthTimeout().ifPresent(b::healthTimeout);
    c.fenceRetention().ifPresent(b::fenceRetention);
    c.keyPrefix().ifPresent(b::keyPrefix);
    return b.build();
  }
}
