package io.hostloom.reliability;

import com.azure.storage.blob.BlobContainerClient;
import io.hostloom.azure.AzuriteTestServer;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;

/**
 * Azurite (the Azure Storage emulator, from the Azure module's test fixture; by default the one
 * shared by the test JVM) with a container of its own. {@link RestartableAzureTarget} owns its
 * server instead.
 */
class AzureTarget implements BackendTarget {
  final AzuriteTestServer azurite;
  private final BlobContainerClient container;

  AzureTarget() {
    this(AzuriteTestServer.shared());
  }

  AzureTarget(AzuriteTestServer azurite) {
    this.azurite = azurite;
    this.container = azurite.newContainer("reliability");
  }

  @Override
  public String name() {
    return "Azurite";
  }

  @Override
  public BackendSpec spec() {
    return specThrough("127.0.0.1", azurite.port());
  }

  @Override
  public InetSocketAddress endpoint() {
    return new InetSocketAddress(InetAddress.getLoopbackAddress(), azurite.port());
  }

  @Override
  public BackendSpec specThrough(String host, int port) {
    return new BackendSpec(
        "azure",
        container.getBlobContainerName() + "@" + azurite.connectionString(host, port),
        Duration.ofSeconds(5));
  }

  @Override
  public long storedRecords() {
    return container.listBlobs().stream().count();
  }

  @Override
  public void close() {
    container.deleteIfExists();
  }
}
