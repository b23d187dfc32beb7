package io.hostloom.integration;

import io.hostloom.testkit.migration.MigrationRun;
import io.hostloom.testkit.migration.OccurrenceSchedule;
import io.lettuce.core.RedisURI;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.integration.redis.util.RedisLockRegistry;

/**
 * One node of {@link IntLockRedisRollingMigrationTest}, in a JVM of its own: {@link
 * IntLockJobNode}'s job through the step its kind names.
 *
 * <p>Arguments: {@code kind node ledger periodMillis occurrences redisUri} ({@link
 * MigrationRun#pair}); kinds: {@code spring} ({@code RedisLockRegistry}, SPIN_LOCK), {@code
 * spring-pubsub} (PUB_SUB_LOCK), {@code compat}, {@code bridge}, {@code own} (the steps of {@link
 * IntLockRedisMigrationConfig}).
 */
public final class IntLockRedisJobNode {
  private IntLockRedisJobNode() {}

  public static void main(String[] args) throws Exception {
    String uri = args[5];
    OccurrenceSchedule.Guard guard =
        switch (args[0]) {
          case "spring" ->
              IntLockJobNode.locked(
                  IntLockRedisMigrationConfig.spring(
                      connectionFactory(uri), RedisLockRegistry.RedisLockType.SPIN_LOCK));
          case "spring-pubsub" ->
              IntLockJobNode.locked(
                  IntLockRedisMigrationConfig.spring(
                      connectionFactory(uri), RedisLockRegistry.RedisLockType.PUB_SUB_LOCK));
          case "compat" -> IntLockJobNode.locked(IntLockRedisMigrationConfig.compat(uri));
          case "own" -> IntLockJobNode.locked(IntLockRedisMigrationConfig.own(uri));
          case "bridge" -> {
            HostLoomLockRegistry compat = IntLockRedisMigrationConfig.compat(uri);
            HostLoomLockRegistry own = IntLockRedisMigrationConfig.own(uri);
            yield (occurrence, job) ->
                IntLockMigrationConfig.runWithBoth(
                    compat, own, IntLockJobNode.key(occurrence), job);
          }
          default -> throw new IllegalArgumentException("unknown kind " + args[0]);
        };
    guard.runExclusively(-1, () -> {}); // first commands before the start
    MigrationRun.serve(args, guard);
    System.exit(0); // Lettuce's and the kernel's threads need no orderly end here
  }

  private static LettuceConnectionFactory connectionFactory(String uri) {
    RedisURI parsed = RedisURI.create(uri);
    LettuceConnectionFactory factory =
        new LettuceConnectionFactory(
            new RedisStandaloneConfiguration(parsed.getHost(), parsed.getPort()));
    factory.afterPropertiesSet(); // a Spring context calls these two for a bean
    factory.start();
    return factory;
  }
}
