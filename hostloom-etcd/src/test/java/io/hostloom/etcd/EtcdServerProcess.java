package io.hostloom.etcd;

import io.hostloom.testkit.server.ServerProcess;
import io.hostloom.testkit.server.SharedServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.stream.Collectors;

/**
 * Real {@code etcd} members on free loopback ports with a temporary data directory, started and
 * stopped by tests: one member ({@link #startNew()}, {@link #shared()}) or a cluster ({@link
 * #startCluster(int)}). A member keeps its data directory and ports across {@link #kill()} / {@link
 * #stop()} and {@link #start()}, so a restart recovers what etcd persisted.
 *
 * <p>Members run with a 50 ms heartbeat and a 500 ms election timeout, so etcd's minimum lease TTL
 * (1.5 election timeouts, rounded up to whole seconds) is 1 s and tests can wait out short leases.
 *
 * <p>The binary is {@code etcd} from the system property {@code hostloom.etcd.server}, the
 * environment variable {@code ETCD_SERVER}, {@code /usr/bin/etcd} or the {@code PATH}. When none
 * exists, tests fail with an install hint; they are never skipped.
 */
public final class EtcdServerProcess implements AutoCloseable {
  static final String INSTALL_HINT =
      "etcd was not found. Install it (Debian/Ubuntu: sudo apt-get install -y etcd-server;"
          + " macOS: brew install etcd) or point -Dhostloom.etcd.server or ETCD_SERVER at an etcd"
          + " binary.";

  private static final SharedServer<EtcdServerProcess> SHARED =
      new SharedServer<>("etcd", EtcdServerProcess::startNew, EtcdServerProcess::close);

  private final String binary;
  private final String name;
  private final int clientPort;
  private final int peerPort;
  private final Path dir;
  private final ServerProcess process;
  private String initialCluster;
  private String clusterToken;

  private EtcdServerProcess(String binary, String name) {
    this.binary = binary;
    this.name = name;
    this.clientPort = ServerProcess.freePort();
    this.peerPort = ServerProcess.freePort();
    try {
      this.dir = Files.createTempDirectory("hostloom-etcd-" + clientPort + "-");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    this.process = new ServerProcess("etcd", dir.resolve("etcd.log"), Duration.ofSeconds(10));
    this.initialCluster = name + "=" + peerUrl();
    this.clusterToken = "hostloom-test-" + clientPort;
  }

  /** The member shared by all tests of this JVM, started on first use. */
  public static EtcdServerProcess shared() {
    return SHARED.get();
  }

  /** A new single-member cluster on new free ports; the caller closes it. */
  public static EtcdServerProcess startNew() {
    EtcdServerProcess p = new EtcdServerProcess(findBinary(), "m0");
    p.start();
    return p;
  }

  /**
   * A new cluster of {@code members} on free ports; returns once every member answers {@code
   * /health} (which needs a leader). The caller closes every member.
   */
  public static List<EtcdServerProcess> startCluster(int members) {
    String binary = findBinary();
    List<EtcdServerProcess> all = new ArrayList<>();
    for (int i = 0; i < members; i++) {
      all.add(new EtcdServerProcess(binary, "m" + i));
    }
    String cluster =
        all.stream().map(m -> m.name + "=" + m.peerUrl()).collect(Collectors.joining(","));
    try {
      for (EtcdServerProcess m : all) {
        m.initialCluster = cluster;
        m.clusterToken = all.get(0).clusterToken;
        m.launch();
      }
      for (EtcdServerProcess m : all) {
        m.awaitHealthy();
      }
    } catch (RuntimeException | Error e) {
      all.forEach(EtcdServerProcess::close);
      throw e;
    }
    return Collections.unmodifiableList(all);
  }

  /** The client endpoint, e.g. {@code http://127.0.0.1:23790}. */
  public String endpoint() {
    return "http://127.0.0.1:" + clientPort;
  }

  public int clientPort() {
    return clientPort;
  }

  /** The endpoints of {@code members}, comma-separated, as the starter's property takes them. */
  public static String endpoints(List<EtcdServerProcess> members) {
    return members.stream().map(EtcdServerProcess::endpoint).collect(Collectors.joining(","));
  }

  private String peerUrl() {
    return "http://127.0.0.1:" + peerPort;
  }

  /** Starts the member (again, after {@link #kill()} or {@link #stop()}); returns once healthy. */
  public synchronized void start() {
    if (process.running()) {
      return;
    }
    launch();
    awaitHealthy();
  }

  private synchronized void launch() {
    List<String> cmd =
        List.of(
            binary,
            "--name",
            name,
            "--data-dir",
            dir.resolve("data").toString(),
            "--listen-client-urls",
            endpoint(),
            "--advertise-client-urls",
            endpoint(),
            "--listen-peer-urls",
            peerUrl(),
            "--initial-advertise-peer-urls",
            peerUrl(),
            "--initial-cluster",
            initialCluster,
            "--initial-cluster-state",
            "new",
            "--initial-cluster-token",
            clusterToken,
            "--heartbeat-interval",
            "50",
            "--election-timeout",
            "500",
            "--log-level",
            "warn");
    try {
      process.launch(cmd, null);
    } catch (IOException e) {
      throw new IllegalStateException(INSTALL_HINT + " (" + e.getMessage() + ")", e);
    }
  }

  private void awaitHealthy() {
    process.awaitReady("become healthy on " + endpoint(), Duration.ofSeconds(20), this::healthy);
  }

  /** Whether {@code GET /health} answers {@code "health":"true"} (a leader exists). */
  public boolean healthy() {
    try (Socket s = new Socket()) {
      s.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), clientPort), 1000);
      s.setSoTimeout(3000);
      s.getOutputStream()
          .write(
              "GET /health HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n".getBytes(StandardCharsets.UTF_8));
      InputStream in = s.getInputStream();
      String reply = new String(in.readAllBytes(), StandardCharsets.UTF_8);
      return reply.replace(" ", "").contains("\"health\":\"true\"");
    } catch (IOException e) {
      return false;
    }
  }

  /** The process id of the running member, to send it signals. */
  public long pid() {
    return process.pid();
  }

  /** SIGKILL: the member vanishes; what it had fsynced survives in its data directory. */
  public void kill() {
    process.kill();
  }

  /** SIGTERM: the member shuts down cleanly. */
  public void stop() {
    process.stop();
  }

  @Override
  public synchronized void close() {
    kill();
    ServerProcess.deleteTree(dir);
  }

  private static String findBinary() {
    return ServerProcess.findExecutable(
        "etcd", "hostloom.etcd.server", "ETCD_SERVER", INSTALL_HINT);
  }
}
