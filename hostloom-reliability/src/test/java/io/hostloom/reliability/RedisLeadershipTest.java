package io.hostloom.reliability;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/** Leader election across JVMs against the real server ({@link LeadershipScenarios}). */
class RedisLeadershipTest extends LeadershipScenarios {
  private static RedisTarget server;

  @BeforeAll
  static void startServer() {
    server = new RedisTarget();
  }

  @AfterAll
  static void stopServer() {
    if (server != null) {
      server.close();
    }
  }

  @Override
  BackendTarget target() {
    return server;
  }
}
