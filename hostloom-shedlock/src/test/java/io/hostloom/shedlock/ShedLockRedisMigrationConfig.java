package io.hostloom.shedlock;

import io.hostloom.locking.DistributedLock;
import io.hostloom.locking.LockingOptions;
import io.hostloom.redis.RedisKeyLayout;
import io.hostloom.redis.RedisLockBackend;
import net.javacrumbs.shedlock.core.LockProvider;
import net.javacrumbs.shedlock.provider.redis.spring.RedisLockProvider;
import org.springframework.data.redis.connection.RedisConnectionFactory;

// snippet:shedlock-redis-steps
/** The providers of each step of docs/migrating.md's rolling migration from ShedLock's Redis. */
final class ShedLockRedisMigrationConfig {
  private ShedLockRedisMigrationConfig() {}

  /** Step 0, the nodes not migrated yet: ShedLock's provider, owner-checked unlock and extend. */
  static LockProvider shedLock(RedisConnectionFactory connectionFactory) {
    return new RedisLockProvider.Builder(connectionFactory)
        .keyPrefix("job-lock") // ShedLock's defaults, spelled out
        .environment("default")
        .safeUpdate(true) // never DEL or SET a key another node holds now
        .build();
  }

  /** Step 1: HostLoom on ShedLock's keys (job-lock:default:<name>); excludes with step-0 nodes. */
  static LockProvider compat(String redisUri) {
    RedisLockBackend backend =
        RedisLockBackend.builder()
            .uri(redisUri)
            .layout(
                RedisKeyLayout.shedLock(
                    "job-lock", "default", "jobs:lock:" + HostLoomLockProvider.KEY_PREFIX))
            .build();
    return new HostLoomLockProvider(DistributedLock.create(LockingOptions.of("jobs"), backend));
  }

  /** Step 2: both layouts, ShedLock's first; excludes with step-1 and step-3 nodes. */
  static LockProvider bridge(String redisUri) {
    return MigrationLockProvider.of(compat(redisUri), own(redisUri));
  }

  /** Step 3: HostLoom's own keys only. */
  static LockProvider own(String redisUri) {
    RedisLockBackend backend = RedisLockBackend.builder().uri(redisUri).build();
    return new HostLoomLockProvider(DistributedLock.create(LockingOptions.of("jobs"), backend));
  }
}
// end:shedlock-redis-steps
