package io.hostloom.reliability;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * Leader election across JVMs against the real server ({@link LeadershipScenarios}), on an Azurite
 * of its own so that the outage phase can crash and restart it.
 */
class AzureLeadershipTest extends LeadershipScenarios {
  private static RestartableAzureTarget server;

  @BeforeAll
  static void startServer() {
    server = new RestartableAzureTarget();
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
