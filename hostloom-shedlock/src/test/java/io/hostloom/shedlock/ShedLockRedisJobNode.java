package io.hostloom.shedlock;

import io.hostloom.testkit.migration.MigrationRun;
import io.lettuce.core.RedisURI;
import net.javacrumbs.shedlock.core.LockProvider;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * One node of {@link ShedLockRedisRollingMigrationTest}, in a JVM of its own: {@link
 * ShedLockJobNode}'s job through the provider its kind names.
 *
 * <p>Arguments: {@code kind node ledger periodMillis occurrences redisUri} ({@link
 * MigrationRun#pair}); kinds: {@code shedlock} (ShedLock's {@code RedisLockProvider} over Spring
 * Data Redis with Lettuce), {@code compat}, {@code bridge}, {@code own} (the steps of {@link
 * ShedLockRedisMigrationConfig}).
 */
public final class ShedLockRedisJobNode {
  private ShedLockRedisJobNode() {}

  public static void main(String[] args) throws Exception {
    String uri = args[5];
    LockProvider provider =
        switch (args[0]) {
          case "shedlock" -> ShedLockRedisMigrationConfig.shedLock(connectionFactory(uri));
          case "compat" -> ShedLockRedisMigrationConfig.compat(uri);
          case "bridge" -> ShedLockRedisMigrationConfig.bridge(uri);
          case "own" -> ShedLockRedisMigrationConfig.own(uri);
          default -> throw new IllegalArgumentException("unknown kind " + args[0]);
        };
    ShedLockJobNode.serve(args, provider);
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
