package io.hostloom.azure;

import com.azure.storage.blob.BlobContainerClient;

/**
 * Public access to this module's {@link Azurite} test fixture, published in the test-jar, so other
 * modules' tests (the reliability scenarios, the starter, the ShedLock provider, the WOPI host's
 * two-instance test) reuse it instead of copying it. Those modules point the system property {@code
 * hostloom.azurite.blob} at this module's npm install.
 */
public final class AzuriteTestServer {
  private final Azurite azurite;

  private AzuriteTestServer(Azurite azurite) {
    this.azurite = azurite;
  }

  /**
   * The Azurite blob service shared by this test JVM, started on first use and stopped when the JVM
   * exits.
   *
   * @throws IllegalStateException with the install command when Azurite is not installed
   */
  public static AzuriteTestServer shared() {
    return new AzuriteTestServer(Azurite.shared());
  }

  public int port() {
    return azurite.port();
  }

  /** A connection string for the service, with its blob endpoint at {@code host:port}. */
  public String connectionString(String host, int port) {
    return azurite.connectionString().replace("127.0.0.1:" + azurite.port(), host + ":" + port);
  }

  /** A new, empty container with a unique name. */
  public BlobContainerClient newContainer(String purpose) {
    return azurite.newContainer(purpose);
  }
}
