package io.hostloom.reliability;

import io.hostloom.azure.AzuriteTestServer;

/**
 * An Azurite of the test's own (not the shared one), in memory: a crash loses every container and
 * blob, as a Redis restart loses every key, and the backend creates its container again on the next
 * call. Scenarios keep outages longer than their leases, and a fencing token's epoch is the second
 * its blob was created, so tokens keep increasing across the restart.
 */
final class RestartableAzureTarget extends AzureTarget implements RestartableTarget {

  RestartableAzureTarget() {
    super(AzuriteTestServer.startNew());
  }

  @Override
  public void stopServer(boolean crash) {
    if (crash) {
      azurite.kill();
    } else {
      azurite.stop();
    }
  }

  @Override
  public void startServer() {
    azurite.start();
  }

  /** Stops the server: its data is in memory only. */
  @Override
  public void close() {
    azurite.close();
  }
}
