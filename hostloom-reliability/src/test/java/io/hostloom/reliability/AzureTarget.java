package io.hostloom.reliability;

import com.azure.storage.blob.BlobContainerClient;
import io.hostloom.azure.AzuriteTestServer;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;

/**
 * Azurite (the Azure Storage emulator, from the Azure module's test fixture; shared by the test
 * JVM) with a container of its own. Not restartable here: Azurite runs in memory, and the issue's
 * outage scenario is about Redis and PostgreSQL.
 */
final class AzureTarget implements BackendTarget {
  private final AzuriteTestServer azurite = AzuriteTestServer.shared();
  private final BlobContainerClient container = azurite.newContainer("reliability");

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
