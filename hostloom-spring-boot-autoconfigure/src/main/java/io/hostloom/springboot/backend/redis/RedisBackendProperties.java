package io.hostloom.springboot.backend.redis;

import io.hostloom.redis.RedisKeyLayout;
import io.hostloom.redis.RedisLockBackend;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * The Redis backend's settings (hostloom.backend=redis, module io.hostloom:hostloom-redis).
 * Defaults are the backend's {@code DEFAULT_*} constants; every other builder option is reachable
 * through a {@link RedisLockBackendBuilderCustomizer} bean.
 */
@ConfigurationProperties("hostloom.redis")
public class RedisBackendProperties {
  /**
   * Where Redis is: redis://[user:password@]host[:port][/db], rediss://... (TLS) or
   * redis-sentinel://host[:port][,host2[:port2]][/db]#masterName. Required.
   */
  private String uri;

  /** The bound of every Redis command and of connecting. */
  private Duration commandTimeout = RedisLockBackend.DEFAULT_COMMAND_TIMEOUT;

  /** The bound of the health probe's PING. */
  private Duration healthTimeout = RedisLockBackend.DEFAULT_HEALTH_TIMEOUT;

  /**
   * How long a key's fencing counter outlives its last grant; a key unused longer may restart its
   * tokens.
   */
  private Duration fenceRetention = RedisLockBackend.DEFAULT_FENCE_RETENTION;

  /** The prefix of every Redis key the backend writes (keep it distinct per application). */
  private String keyPrefix = RedisKeyLayout.DEFAULT_PREFIX;

  public String getUri() {
    return uri;
  }

  public void setUri(String uri) {
    this.uri = uri;
  }

  public Duration getCommandTimeout() {
    return commandTimeout;
  }

  public void setCommandTimeout(Duration commandTimeout) {
    this.commandTimeout = commandTimeout;
  }

  public Duration getHealthTimeout() {
    return healthTimeout;
  }

  public void setHealthTimeout(Duration healthTimeout) {
    this.healthTimeout = healthTimeout;
  }

  public Duration getFenceRetention() {
    return fenceRetention;
  }

  public void setFenceRetention(Duration fenceRetention) {
    this.fenceRetention = fenceRetention;
  }

  public String getKeyPrefix() {
    return keyPrefix;
  }

  public void setKeyPrefix(String keyPrefix) {
    this.keyPrefix = keyPrefix;
  }
}
