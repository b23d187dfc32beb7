package io.hostloom.shedlock;

import com.azure.storage.blob.BlobContainerClient;
import io.hostloom.azure.AzureBlobLockBackend;
import io.hostloom.azure.AzuriteTestServer;
import io.hostloom.locking.spi.LockBackend;

/** The suite against Azurite (the Azure module's fixture), a container of its own. */
class AzureLockProviderTest extends LockProviderSuite {
  private static AzureBlobLockBackend backend;

  @Override
  protected synchronized LockBackend backend() {
    if (backend == null) {
      AzuriteTestServer azurite = AzuriteTestServer.shared();
      BlobContainerClient container = azurite.newContainer("shedlock");
      backend =
          AzureBlobLockBackend.builder()
              .containerName(container.getBlobContainerName())
              .connectionString(azurite.connectionString("127.0.0.1", azurite.port()))
              .build();
    }
    return backend;
  }

  @Override
  protected int fuzzIterations() {
    return 5;
  }
}
