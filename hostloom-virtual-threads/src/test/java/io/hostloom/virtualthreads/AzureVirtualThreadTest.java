package io.hostloom.virtualthreads;

import io.hostloom.azure.AzureBlobLockBackend;
import io.hostloom.azure.AzuriteTestServer;
import io.hostloom.locking.spi.LockBackend;
import java.util.UUID;

/** The kernel over Azure Blob Storage (Azurite) on virtual threads. */
class AzureVirtualThreadTest extends VirtualThreadExclusionSuite {
  private final String container = "vt-" + UUID.randomUUID().toString().substring(0, 8);

  @Override
  protected LockBackend newBackend() {
    return AzureBlobLockBackend.builder()
        .connectionString(AzuriteTestServer.shared().connectionString())
        .containerName(container)
        .build();
  }

  @Override
  protected int threadsPerInstance() {
    return 10; // every grant is a few HTTP round trips
  }

  @Override
  protected int rounds() {
    return 3;
  }
}
