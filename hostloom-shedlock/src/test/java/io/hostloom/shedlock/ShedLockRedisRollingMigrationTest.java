package io.hostloom.shedlock;

import io.hostloom.redis.RedisRollingMigrationSuite;

/**
 * The rolling migration from ShedLock's Redis provider on a real redis-server: step 0 is ShedLock
 * 7.10's own {@code RedisLockProvider} (shedlock-provider-redis-spring over Lettuce), step 1 {@code
 * HostLoomLockProvider} over {@code RedisKeyLayout.shedLock}, step 2 {@code MigrationLockProvider}
 * over both layouts, step 3 HostLoom's own layout ({@link ShedLockRedisMigrationConfig}, run by
 * {@link ShedLockRedisJobNode}).
 */
class ShedLockRedisRollingMigrationTest extends RedisRollingMigrationSuite {
  @Override
  protected Class<?> node() {
    return ShedLockRedisJobNode.class;
  }

  @Override
  protected String oldKind() {
    return "shedlock";
  }
}
