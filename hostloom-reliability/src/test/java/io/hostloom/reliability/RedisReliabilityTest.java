package io.hostloom.reliability;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/** Every reliability scenario against a real {@code redis-server} started by the test. */
class RedisReliabilityTest extends OutageScenarios {
  private static RedisTarget redis;

  @BeforeAll
  static void startRedis() {
    redis = new RedisTarget();
  }

  @AfterAll
  static void stopRedis() {
    if (redis != null) {
      redis.close();
    }
  }

  @Override
  RestartableTarget target() {
    return redis;
  }
}
