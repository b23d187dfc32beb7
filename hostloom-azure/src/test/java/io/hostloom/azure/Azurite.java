package io.hostloom.azure;

import com.azure.storage.blob.BlobContainerClient;
import com.azure.storage.blob.BlobServiceClient;
import com.azure.storage.blob.BlobServiceClientBuilder;
import com.azure.storage.common.policy.RequestRetryOptions;
import com.azure.storage.common.policy.RetryPolicyType;
import io.hostloom.testkit.TestTiming;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.UUID;

/**
 * One real Azurite blob service per test JVM, started from the npm package pinned in this module
 * ({@code package.json}, {@code azurite 3.35.0}) on a free loopback port, stopped when the JVM
 * exits. A missing install fails the test with the command that installs it; it is never skipped.
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

  private static Azurite shared;

  private final Process process;
  private final int port;
  private final Path log;

  private Azurite(Process process, int port, Path log) {
    this.process = process;
    this.port = port;
    this.log = log;
  }

  /** The shared server, started on first use. */
  public static synchronized Azurite shared() {
    if (shared == null) {
      shared = start();
      Azurite s = shared;
      Runtime.getRuntime().addShutdownHook(new Thread(s::stop, "azurite-stop"));
    }
    return shared;
  }

  private static Azurite start() {
    Path executable =
        Path.of(System.getProperty(EXECUTABLE_PROPERTY, "node_modules/.bin/azurite-blob"));
    if (!Files.isExecutable(executable)) {
      throw new IllegalStateException(
          INSTALL_HINT + " (looked for " + executable.toAbsolutePath() + ")");
    }
    int port = freePort();
    try {
      Path dir = Files.createDirectories(Path.of("target", "azurite"));
      Path log = dir.resolve("azurite-" + port + ".log");
      Process p =
          new ProcessBuilder(
                  List.of(
                      executable.toAbsolutePath().toString(),
                      "--blobHost",
                      "127.0.0.1",
                      "--blobPort",
                      Integer.toString(port),
                      "--inMemoryPersistence",
                      "--disableTelemetry",
                      "--skipApiVersionCheck",
                      "--silent"))
              .directory(dir.toFile()) // anything Azurite writes stays under target/
              .redirectErrorStream(true)
              .redirectOutput(log.toFile())
              .start();
      Azurite a = new Azurite(p, port, log);
      a.awaitListening();
      return a;
    } catch (IOException e) {
      throw new IllegalStateException(
          INSTALL_HINT + " (starting " + executable + " failed: " + e.getMessage() + ")", e);
    }
  }

  private void awaitListening() {
    TestTiming.await(
        "Azurite listens on 127.0.0.1:" + port,
        () -> {
          if (!process.isAlive()) {
            throw new IllegalStateException(
                "Azurite exited with "
                    + process.exitValue()
                    + ": "
                    + logTail()
                    + "; "
                    + INSTALL_HINT);
          }
          try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress("127.0.0.1", port), 200);
            return true;
          } catch (IOException notYet) {
            return false;
          }
        },
        Duration.ofSeconds(30));
  }

  private String logTail() {
    try {
      String text = Files.readString(log, StandardCharsets.UTF_8);
      return text.length() > 2000 ? text.substring(text.length() - 2000) : text;
    } catch (IOException e) {
      return "(no log)";
    }
  }

  void stop() {
    process.destroy();
  }

  int port() {
    return port;
  }

  String endpoint() {
    return "http://127.0.0.1:" + port + "/" + ACCOUNT;
  }

  /** A connection string for this server. */
  public String connectionString() {
    return "DefaultEndpointsProtocol=http;AccountName="
        + ACCOUNT
        + ";AccountKey="
        + KEY
        + ";BlobEndpoint="
        + endpoint()
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
    try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
      return s.getLocalPort();
    } catch (IOException e) {
      throw new IllegalStateException("no free port", e);
    }
  }
}
