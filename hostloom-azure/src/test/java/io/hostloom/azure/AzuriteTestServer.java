package io.hostloom.azure;

import com.azure.storage.blob.BlobContainerClient;

/**
 * Public access to this module's {@link Azurite} test fixture, published in the test-jar, so other
 * modules' tests (the reliability scenarios, the starter, the ShedLock provider, the WOPI host's
 * two-instance test) reuse it instead of copying it: the JVM's {@linkplain #shared() shared}
 * server, or one {@linkplain #startNew() owned} by a test that crashes and restarts it. Those
 * modules point the system property {@code hostloom.azurite.blob} at this module's npm install.
 */
public final class AzuriteTestServer implements AutoCloseable {
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

  /**
   * A new in-memory server of the caller's own on a free loopback port, which it may {@link #kill},
   * {@link #stop} and {@link #start} again on that port; the caller closes it. A restart comes back
   * empty: no container, no blob.
   *
   * @throws IllegalStateException with the install command when Azurite is not installed
   */
  public static AzuriteTestServer startNew() {
    return new AzuriteTestServer(Azurite.startNew());
  }

  /**
   * SIGKILL of an owned server; returns once it has exited.
   *
   * @throws IllegalStateException on the shared server
   */
  public void kill() {
    azurite.kill();
  }

  /**
   * SIGTERM of an owned server; returns once it has exited.
   *
   * @throws IllegalStateException on the shared server
   */
  public void stop() {
    azurite.requireOwned();
    azurite.stop();
  }

  /**
   * Starts a stopped owned server again on the same port, empty; returns once it listens.
   *
   * @throws IllegalStateException on the shared server, or when it is running
   */
  public void start() {
    azurite.start();
  }

  public int port() {
    return azurite.port();
  }

  /** The installed Azurite's version (its npm package's), or "unknown". */
  public String version() {
    return azurite.version();
  }

  /** A connection string for the service on its own loopback port. */
  public String connectionString() {
    return azurite.connectionString();
  }

  /** A connection string for the service, with its blob endpoint at {@code host:port}. */
  public String connectionString(String host, int port) {
    return azurite.connectionString().replace("127.0.0.1:" + azurite.port(), host + ":" + port);
  }

  /** A new, empty container with a unique name. */
  public BlobContainerClient newContainer(String purpose) {
    return azurite.newContainer(purpose);
  }

  /** Stops an owned server; does nothing to the shared one. */
  @Override
  public void close() {
    azurite.close();
  }
}
