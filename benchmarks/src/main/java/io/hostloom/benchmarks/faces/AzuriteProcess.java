package io.hostloom.benchmarks.faces;

import io.hostloom.benchmarks.LocalServers;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * Azurite's blob service from the npm package pinned in {@code hostloom-azure/package.json}, on a
 * free loopback port, in memory. Install it with {@code npm ci --prefix hostloom-azure}.
 */
final class AzuriteProcess implements AutoCloseable {
  /** Azurite's well-known development account (public, documented by Microsoft). */
  private static final String ACCOUNT = "devstoreaccount1";

  private static final String KEY =
      "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==";

  private final Process process;
  private final int port;
  private final String version;

  private AzuriteProcess(Process process, int port, String version) {
    this.process = process;
    this.port = port;
    this.version = version;
  }

  /**
   * Starts {@code -Dhostloom.azurite.blob} or {@code
   * hostloom-azure/node_modules/.bin/azurite-blob}.
   */
  static AzuriteProcess start(Path workDir) throws java.io.IOException {
    Path exe =
        Path.of(
            System.getProperty(
                "hostloom.azurite.blob", "hostloom-azure/node_modules/.bin/azurite-blob"));
    if (!Files.isExecutable(exe)) {
      throw new IllegalStateException(
          "Azurite not found at "
              + exe.toAbsolutePath()
              + ": run npm ci --prefix hostloom-azure from the repository root, or pass"
              + " -Dhostloom.azurite.blob=/path/to/azurite-blob");
    }
    int port = LocalServers.freePort();
    Path dir = Files.createDirectories(workDir.resolve("azurite"));
    Process p =
        new ProcessBuilder(
                List.of(
                    exe.toAbsolutePath().toString(),
                    "--blobHost",
                    "127.0.0.1",
                    "--blobPort",
                    Integer.toString(port),
                    "--inMemoryPersistence",
                    "--disableTelemetry",
                    "--skipApiVersionCheck",
                    "--silent"))
            .directory(dir.toFile())
            .redirectErrorStream(true)
            .redirectOutput(dir.resolve("azurite.log").toFile())
            .start();
    Runtime.getRuntime().addShutdownHook(new Thread(p::destroyForcibly));
    LocalServers.awaitPort(p, port, Duration.ofSeconds(30), "azurite-blob");
    return new AzuriteProcess(p, port, versionOf(exe));
  }

  private static String versionOf(Path exe) {
    // node_modules/.bin/azurite-blob -> node_modules/azurite/package.json
    Path pkg = exe.toAbsolutePath().getParent().getParent().resolve("azurite/package.json");
    try {
      String json = Files.readString(pkg);
      int i = json.indexOf("\"version\"");
      int q1 = json.indexOf('"', json.indexOf(':', i) + 1);
      return json.substring(q1 + 1, json.indexOf('"', q1 + 1));
    } catch (java.io.IOException | RuntimeException e) {
      return "?";
    }
  }

  String connectionString() {
    return "DefaultEndpointsProtocol=http;AccountName="
        + ACCOUNT
        + ";AccountKey="
        + KEY
        + ";BlobEndpoint=http://127.0.0.1:"
        + port
        + "/"
        + ACCOUNT
        + ";";
  }

  String version() {
    return version;
  }

  @Override
  public void close() {
    LocalServers.stop(process);
  }
}
