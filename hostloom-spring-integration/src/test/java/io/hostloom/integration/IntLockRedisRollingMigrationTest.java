package io.hostloom.integration;

import io.hostloom.redis.RedisRollingMigrationSuite;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The rolling migration from Spring Integration's {@code RedisLockRegistry} on a real redis-server:
 * step 0 is Spring's registry (spring-integration-redis 7.0 over Spring Data Redis with Lettuce;
 * SPIN_LOCK, and PUB_SUB_LOCK in its own test), step 1 {@code HostLoomLockRegistry} over {@code
 * RedisKeyLayout.springIntegration}, step 2 both locks, step 3 HostLoom's own layout ({@link
 * IntLockRedisMigrationConfig}, run by {@link IntLockRedisJobNode}).
 */
class IntLockRedisRollingMigrationTest extends RedisRollingMigrationSuite {
  @Override
  protected Class<?> node() {
    return IntLockRedisJobNode.class;
  }

  @Override
  protected String oldKind() {
    return "spring";
  }

  @Test
  void aPubSubRegistryNodeAndAHostLoomNodeOnItsKeysRunEachOccurrenceAtMostOnce() throws Exception {
    run("spring-pubsub", "compat").assertExclusiveAndShared(List.of("old", "new"));
  }
}
