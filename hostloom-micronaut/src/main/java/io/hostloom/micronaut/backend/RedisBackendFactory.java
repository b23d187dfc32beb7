package io.hostloom.micronaut.backend;

import io.hostloom.redis.RedisLockBackend;
import io.micronaut.context.annotation.Bean;
import io.micronaut.context.annotation.Factory;
import io.micronaut.context.annotation.Requires;
import jakarta.inject.Singleton;

/**
 * {@code hostloom.backend=redis} with {@code io.hostloom:hostloom-redis} on the classpath: a {@link
 * RedisLockBackend} built from {@code hostloom.redis.*}, owning its Lettuce client (closed with the
 * context, after the lock).
 */
@Factory
@Requires(property = "hostloom.backend", value = "redis")
@Requires(classes = RedisLockBackend.class)
public class RedisBackendFactory {
  @Singleton
  @Bean(preDestroy = "close")
  RedisLockBackend hostloomLockBackend(RedisConfiguration redis) {
    RedisLockBackend.Builder b =
        RedisLockBackend.builder()
            .uri(
                RequiredSetting.of(
                    redis.getUri(), "hostloom.redis.uri", "redis", "redis://localhost:6379"));
    redis.getCommandTimeout().ifPresent(b::commandTimeout);
    redis.getHealthTimeout().ifPresent(b::healthTimeout);
    redis.getFenceRetention().ifPresent(b::fenceRetention);
    redis.getKeyPrefix().ifPresent(b::keyPrefix);
    return b.build();
  }
}
