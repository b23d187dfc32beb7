package io.hostloom.micronaut.backend;

import io.micronaut.context.annotation.ConfigurationProperties;
import java.time.Duration;
import java.util.Optional;

/**
 * {@code hostloom.redis.*}, the Spring Boot starter's names: {@code uri} (required), {@code
 * command-timeout}, {@code health-timeout}, {@code fence-retention}, {@code key-prefix}. A setting
 * left out keeps the builder's default ({@code RedisLockBackend.DEFAULT_*}).
 */
@ConfigurationProperties("hostloom.redis")
public interface RedisConfiguration {
  /** redis://[user:password@]host[:port][/db], rediss://... or redis-sentinel://...#master. */
  Optional<String> getUri();

  /** The bound of every Redis command and of connecting. */
  Optional<Duration> getCommandTimeout();

  /** The bound of the health probe's PING. */
  Optional<Duration> getHealthTimeout();

  /** How long a key's fencing counter outlives its last grant. */
  Optional<Duration> getFenceRetention();

  /** The prefix of every Redis key the backend writes. */
  Optional<String> getKeyPrefix();
}
