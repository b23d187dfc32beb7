package io.hostloom.springboot.backend.redis;

import io.hostloom.redis.RedisLockBackend;

/**
 * Changes the {@link RedisLockBackend.Builder} the Redis backend auto-configuration has filled from
 * {@code hostloom.redis.*}, before it builds: every builder option (release notifications, a
 * Lettuce client of your own, ...) without redefining the backend bean. Every customizer bean is
 * applied, in {@code @Order} order; a customizer's exception fails start-up.
 */
@FunctionalInterface
public interface RedisLockBackendBuilderCustomizer {
  void customize(RedisLockBackend.Builder builder);
}
