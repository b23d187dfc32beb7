package io.hostloom.reliability;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/** Leader election across JVMs against the real server ({@link LeadershipScenarios}). */
class AzureLeadershipTest extends LeadershipScenarios {
  private static AzureTarget server;

  @BeforeAll
  static void startServer() {
    server = new AzureTarget();
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
