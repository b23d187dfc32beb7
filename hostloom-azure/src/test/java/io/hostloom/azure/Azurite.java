package io.hostloom.azure;

import com.azure.storage.blob.BlobContainerClient;
import com.azure.storage.blob.BlobServiceClient;
import com.azure.storage.blob.BlobServiceClientBuilder;
import com.azure.storage.common.policy.RequestRetryOptions;
import com.azure.storage.common.policy.RetryPolicyType;
import io.hostloom.testkit.server.ServerProcess;
import io.hostloom.testkit.server.SharedServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.UUID;

/**
 * A real Azurite blob service, in memory, started from the npm package pinned in this module
 * ({@code package.json}, {@code azurite 3.35.0}) on a free loopback port: one {@linkplain #shared()
 * shared} per test JVM, stopped when the JVM exits, or one {@linkplain #startNew() owned} by a test
 * that stops and starts it again on the same port. A missing install fails the test with the
 * command that installs it; it is never skipped.
 *
 * <p>The executable is {@code node_modules/.bin/azurite-blob} under the module directory (the
 * tests' working directory), or the path in the system property {@value #EXECUTABLE_PROPERTY}.
 */
public final class Azurite {
  static final String EXECUTABLE_PROPERTY = "hostloom.azurite.blob";

  /** Azurite's well-known development account (public, documented by Microsoft). */
  static final String ACCOUNT = "devstoreaccount1";

  static final String KEY =
      "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==";

  static final String INSTALL_HINT =
      "Azurite is not installed. From the repository root run: npm ci --prefix hostloom-azure"
          + " (needs Node.js 18+ and npm; installs azurite 3.35.0 from hostloom-azure/package.json)"
          + ", or set -D"
          + EXECUTABLE_PROPERTY
          + "=/path/to/azurite-blob";

  private static final SharedServer<Azurite> SHARED =
      new SharedServer<>("azurite", Azurite::startShared, Azurite::stop);

  private final Path executable;
  private final int port;
  private final Path log;
  private final boolean owned;
  private final ServerProcess process;

  private Azurite(Path executable, int port, boolean owned) {
    this.executable = executable;
    this.port = port;
    this.log = Path.of("target", "azurite", "azurite-" + port + ".log");
    this.owned = owned;
    this.process = new ServerProcess("Azurite", log, Duration.ofSeconds(30));
  }

  /** The shared server, started on first use. */
  public static Azurite shared() {
    return SHARED.get();
  }

  /**
   * A server of the caller's own on a free port, which it may {@link #kill}, {@link #stop} and
   * {@link #start} again on that port, and closes with {@link #close}. In memory, like the shared
   * one: a restart loses every container and blob (on disk, Azurite saves its metadata every 5 s,
   * so a SIGKILL would roll blobs back instead, which no real storage account does).
   */
  static Azurite startNew() {
    Azurite a = new Azurite(executable(), freePort(), true);
    a.start();
    return a;
  }

  private static Azurite startShared() {
    Azurite a = new Azurite(executable(), freePort(), false);
    a.launch();
    return a;
  }

  private static Path executable() {
    Path executable =
        Path.of(System.getProperty(EXECUTABLE_PROPERTY, "node_modules/.bin/azurite-blob"));
    if (!Files.isExecutable(executable)) {
      throw new IllegalStateException(
          INSTALL_HINT + " (looked for " + executable.toAbsolutePath() + ")");
    }
    return executable;
  }

  /** Starts an owned server again on its port, empty; returns once it listens. */
  synchronized void start() {
    requireOwned();
    if (process.running()) {
      throw new IllegalStateException("Azurite on port " + port + " is running");
    }
    launch();
  }

  private void launch() {
    try {
      Path dir = Files.createDirectories(log.getParent());
      process.launch(
          List.of(
              executable.toAbsolutePath().toString(),
              "--blobHost",
              "127.0.0.1",
              "--blobPort",
              Integer.toString(port),
              "--inMemoryPersistence",
              "--disableTelemetry",
              "--skipApiVersionCheck",
              "--silent"),
          dir); // anything Azurite writes stays under target/
    } catch (IOException e) {
      throw new IllegalStateException(
          INSTALL_HINT + " (starting " + executable + " failed: " + e.getMessage() + ")", e);
    }
    process.awaitReady("listen on 127.0.0.1:" + port, Duration.ofSeconds(30), this::listening);
  }

  private boolean listening() {
    try (Socket s = new Socket()) {
      s.connect(new InetSocketAddress("127.0.0.1", port), 200);
      return true;
    } catch (IOException notYet) {
      return false;
    }
  }

  /** SIGTERM; returns once the process has exited. */
  synchronized void stop() {
    process.stop();
  }

  /** SIGKILL of an owned server; returns once the process has exited. */
  synchronized void kill() {
    requireOwned();
    process.kill();
  }

  /** Stops an owned server for good; the shared one stays up until the JVM exits. */
  synchronized void close() {
    if (owned) {
      process.stop();
    }
  }

  void requireOwned() {
    if (!owned) {
      throw new IllegalStateException("the shared Azurite is not stopped or started by a test");
    }
  }

  int port() {
    return port;
  }

  /**
   * The installed Azurite's version, from {@code node_modules/azurite/package.json} next to the
   * executable's {@code .bin}, or "unknown".
   */
  String version() {
    Path pkg = executable.toAbsolutePath().getParent().getParent().resolve("azurite/package.json");
    try {
      String json = Files.readString(pkg, StandardCharsets.UTF_8);
      int key = json.indexOf("\"version\"");
      int open = json.indexOf('"', json.indexOf(':', key) + 1);
      return json.substring(open + 1, json.indexOf('"', open + 1));
    } catch (IOException | RuntimeException e) {
      return "unknown";
    }
  }

  String endpoint() {
    return "http://127.0.0.1:" + port + "/" + ACCOUNT;
  }

  /** A connection string for this server. */
  public String connectionString() {
    return connectionStringAt("127.0.0.1", port);
  }

  /** A connection string for the emulator's account at {@code host:port} (a proxy, a dead port). */
  static String connectionStringAt(String host, int port) {
    return "DefaultEndpointsProtocol=http;AccountName="
        + ACCOUNT
        + ";AccountKey="
        + KEY
        + ";BlobEndpoint=http://"
        + host
        + ":"
        + port
        + "/"
        + ACCOUNT
        + ";";
  }

  /** A backend builder for this server and {@code container}. */
  AzureBlobLockBackend.Builder backend(String container) {
    return AzureBlobLockBackend.builder()
        .connectionString(connectionString())
        .containerName(container)
        .commandTimeout(Duration.ofSeconds(10));
  }

  /** A plain SDK client (no retries) for looking at and planting blobs by hand. */
  BlobServiceClient rawClient() {
    return new BlobServiceClientBuilder()
        .connectionString(connectionString())
        .retryOptions(new RequestRetryOptions(RetryPolicyType.FIXED, 1, 10, null, null, null))
        .buildClient();
  }

  /** A new, empty container for one test class. */
  BlobContainerClient newContainer(String purpose) {
    String name =
        (purpose + "-" + UUID.randomUUID().toString().replace("-", ""))
            .toLowerCase(Locale.ROOT)
            .substring(0, Math.min(63, purpose.length() + 33));
    BlobContainerClient c = rawClient().getBlobContainerClient(name);
    c.createIfNotExists();
    return c;
  }

  /** A loopback port nobody listens on right now. */
  static int freePort() {
    return ServerProcess.freePort();
  }
}
