package io.hostloom.integration;

import io.hostloom.locking.DistributedLock;
import io.hostloom.locking.LockingOptions;
import io.hostloom.redis.RedisKeyLayout;
import io.hostloom.redis.RedisLockBackend;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.integration.redis.util.RedisLockRegistry;
import org.springframework.integration.support.locks.LockRegistry;

// snippet:redis-lock-steps
/** The registries of each step of docs/migrating.md's rolling migration from RedisLockRegistry. */
final class IntLockRedisMigrationConfig {
  private IntLockRedisMigrationConfig() {}

  /** Step 0, the nodes not migrated yet: Spring's registry, keys "jobs:<lock key>". */
  static LockRegistry<?> spring(
      RedisConnectionFactory connectionFactory, RedisLockRegistry.RedisLockType type) {
    RedisLockRegistry registry = new RedisLockRegistry(connectionFactory, "jobs");
    registry.setRedisLockType(type); // SPIN_LOCK (the default) or PUB_SUB_LOCK
    return registry;
  }

  /** Step 1: HostLoom on the registry's keys (lock key "k" is the backend key "jobs:lock:k"). */
  static HostLoomLockRegistry compat(String redisUri) {
    RedisLockBackend backend =
        RedisLockBackend.builder()
            .uri(redisUri)
            .layout(RedisKeyLayout.springIntegration("jobs", "jobs:lock:"))
            .build();
    return HostLoomLockRegistry.builder(DistributedLock.create(LockingOptions.of("jobs"), backend))
        .build();
  }

  /** Step 3: HostLoom's own keys only (step 2 holds both: IntLockMigrationConfig.runWithBoth). */
  static HostLoomLockRegistry own(String redisUri) {
    RedisLockBackend backend = RedisLockBackend.builder().uri(redisUri).build();
    return HostLoomLockRegistry.builder(DistributedLock.create(LockingOptions.of("jobs"), backend))
        .build();
  }
}
// end:redis-lock-steps
