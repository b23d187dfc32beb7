package io.hostloom.reliability;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/** The reliability scenarios against Azurite (no outage scenario: see {@link AzureTarget}). */
class AzureReliabilityTest extends ScheduleScenarios {
  private static AzureTarget azure;

  @BeforeAll
  static void startAzurite() {
    azure = new AzureTarget();
  }

  @AfterAll
  static void deleteContainer() {
    if (azure != null) {
      azure.close();
    }
  }

  @Override
  BackendTarget target() {
    return azure;
  }

  // every Azure lock operation is 2-3 HTTP requests to a Node.js emulator: a smaller load
  @Override
  int contentionThreads() {
    return Soak.pick(3, 4);
  }

  @Override
  long contentionGrantsPerProcess() {
    return Soak.pick(400, 40_000);
  }
}
