package io.hostloom.springboot.backend.redis;

import io.hostloom.redis.RedisKeyLayout;
import io.hostloom.springboot.backend.BackendDefinition;
import java.util.List;
import java.util.Optional;
import org.springframework.boot.context.properties.bind.Binder;

/** {@code hostloom.backend=redis}: the rules of {@code hostloom.redis.*}. */
public final class RedisBackendDefinition implements BackendDefinition {
  @Override
  public String name() {
    return "redis";
  }

  @Override
  public Optional<String> backendClass() {
    return Optional.of("io.hostloom.redis.RedisLockBackend");
  }

  @Override
  public String artifact() {
    return "io.hostloom:hostloom-redis";
  }

  @Override
  public void validate(Binder binder, Context context, List<String> problems) {
    RedisBackendProperties r =
        binder
            .bind("hostloom.redis", RedisBackendProperties.class)
            .orElseGet(RedisBackendProperties::new);
    String uri = r.getUri() == null ? "" : r.getUri().strip();
    if (uri.isEmpty()) {
      problems.add(
          "hostloom.redis.uri is required with hostloom.backend=redis, e.g. redis://localhost:6379");
    } else if (!uri.matches("(?i)(redis|rediss|redis-sentinel)://.+")) {
      int colon = uri.indexOf("://");
      problems.add(
          "hostloom.redis.uri must start with redis://, rediss:// or redis-sentinel:// but was '"
              + (colon < 0 ? "no scheme" : uri.substring(0, colon) + "://")
              + "'");
    }
    BackendDefinition.requirePositive(
        "hostloom.redis.command-timeout", r.getCommandTimeout(), problems);
    BackendDefinition.requirePositive(
        "hostloom.redis.health-timeout", r.getHealthTimeout(), problems);
    BackendDefinition.requirePositive(
        "hostloom.redis.fence-retention", r.getFenceRetention(), problems);
    try {
      RedisKeyLayout.withPrefix(r.getKeyPrefix());
    } catch (IllegalArgumentException | NullPointerException e) {
      problems.add("hostloom.redis.key-prefix is invalid: " + e.getMessage());
    }
  }
}
