package io.hostloom.springboot.store.redis;

import io.hostloom.redis.RedisKeyLayout;
import io.hostloom.springboot.store.HostloomStore;
import java.util.List;
import java.util.Optional;
import org.springframework.boot.context.properties.bind.Binder;

/** {@code hostloom.store=redis}: the rules of {@code hostloom.redis.*}. */
public final class RedisStore implements HostloomStore {
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
    RedisStoreProperties r =
        binder
            .bind("hostloom.redis", RedisStoreProperties.class)
            .orElseGet(RedisStoreProperties::new);
    String uri = r.getUri() == null ? "" : r.getUri().strip();
    if (uri.isEmpty()) {
      problems.add(
          "hostloom.redis.uri is required with hostloom.store=redis, e.g. redis://localhost:6379");
    } else if (!uri.matches("(?i)(redis|rediss|redis-sentinel)://.+")) {
      int colon = uri.indexOf("://");
      problems.add(
          "hostloom.redis.uri must start with redis://, rediss:// or redis-sentinel:// but was '"
              + (colon < 0 ? "no scheme" : uri.substring(0, colon) + "://")
              + "'");
    }
    HostloomStore.requirePositive(
        "hostloom.redis.command-timeout", r.getCommandTimeout(), problems);
    HostloomStore.requirePositive("hostloom.redis.health-timeout", r.getHealthTimeout(), problems);
    HostloomStore.requirePositive(
        "hostloom.redis.fence-retention", r.getFenceRetention(), problems);
    try {
      RedisKeyLayout.withPrefix(r.getKeyPrefix());
    } catch (IllegalArgumentException | NullPointerException e) {
      problems.add("hostloom.redis.key-prefix is invalid: " + e.getMessage());
    }
  }
}
