package io.hostloom.redis;

import io.hostloom.testkit.TestTiming;
import io.hostloom.testkit.server.ServerProcess;
import io.hostloom.testkit.server.SharedServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

/**
 * A real {@code redis-server} on a free loopback port, without persistence, started and stopped by
 * tests. {@link #shared()} is one server for the whole test JVM (killed by a shutdown hook); tests
 * that stop the server create their own with {@link #startNew()} and can {@link #stop()} and {@link
 * #start()} it again on the same port.
 *
 * <p>The binary is {@code redis-server} from the system property {@code hostloom.redis.server}, the
 * environment variable {@code REDIS_SERVER}, {@code /usr/bin/redis-server} or the {@code PATH}.
 * When none exists, tests fail with an install hint; they are never skipped.
 */
public final class RedisServerProcess implements AutoCloseable {
  static final String INSTALL_HINT =
      "redis-server was not found. Install it (Debian/Ubuntu: sudo apt-get install -y redis-server;"
          + " macOS: brew install redis) or point -Dhostloom.redis.server or REDIS_SERVER at a"
          + " redis-server or valkey-server binary.";

  private static final SharedServer<RedisServerProcess> SHARED =
      new SharedServer<>("redis-server", RedisServerProcess::startNew, RedisServerProcess::close);

  private final String binary;
  private final int port;
  private final boolean cluster;
  private final int sentinelOf; // the monitored primary's port when this is a sentinel, else 0
  private final Path dir;
  private final ServerProcess process;

  private RedisServerProcess(String binary, int port, boolean cluster, int sentinelOf) {
    this.binary = binary;
    this.port = port;
    this.cluster = cluster;
    this.sentinelOf = sentinelOf;
    try {
      this.dir = Files.createTempDirectory("hostloom-redis-" + port + "-");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    this.process =
        new ServerProcess("redis-server", dir.resolve("redis.log"), Duration.ofSeconds(10));
  }

  /** The server shared by all tests of this JVM, started on first use. */
  public static RedisServerProcess shared() {
    return SHARED.get();
  }

  /** A new server on a new free port; the caller closes it (public for the benchmarks). */
  public static RedisServerProcess startNew() {
    RedisServerProcess p = new RedisServerProcess(findBinary(), freePort(), false, 0);
    p.start();
    return p;
  }

  /**
   * A new single-node Redis Cluster (cluster mode, all 16384 slots on this node) on a free port: a
   * real cluster for slot and {@code CROSSSLOT} rules, without replicas.
   */
  static RedisServerProcess startNewCluster() {
    RedisServerProcess p = new RedisServerProcess(findBinary(), freePort(), true, 0);
    p.start();
    p.command("CLUSTER", "ADDSLOTSRANGE", "0", "16383");
    TestTiming.await(
        "cluster_state:ok",
        () -> p.command("CLUSTER", "INFO").contains("cluster_state:ok"),
        Duration.ofSeconds(10));
    return p;
  }

  /**
   * A new Redis Cluster of {@code nodes} primaries (no replicas) on free ports, the 16384 slots
   * split evenly in order (node 0 has the lowest slots); returns once every node reports {@code
   * cluster_state:ok} and knows all others. The caller closes every node.
   */
  static List<RedisServerProcess> startNewCluster(int nodes) {
    List<RedisServerProcess> all = new ArrayList<>();
    try {
      formCluster(all, nodes);
    } catch (RuntimeException | Error e) {
      all.forEach(RedisServerProcess::close);
      throw e;
    }
    return all;
  }

  private static void formCluster(List<RedisServerProcess> all, int nodes) {
    for (int i = 0; i < nodes; i++) {
      RedisServerProcess p = new RedisServerProcess(findBinary(), freePort(), true, 0);
      all.add(p);
      p.start();
      int from = 16384 * i / nodes;
      int to = 16384 * (i + 1) / nodes - 1;
      p.command("CLUSTER", "ADDSLOTSRANGE", Integer.toString(from), Integer.toString(to));
    }
    for (RedisServerProcess p : all.subList(1, nodes)) {
      all.get(0).command("CLUSTER", "MEET", "127.0.0.1", Integer.toString(p.port()));
    }
    for (RedisServerProcess p : all) {
      TestTiming.await(
          "cluster_state:ok with " + nodes + " known nodes on port " + p.port(),
          () -> {
            String info = p.command("CLUSTER", "INFO");
            return info.contains("cluster_state:ok")
                && info.contains("cluster_known_nodes:" + nodes + "\r");
          },
          Duration.ofSeconds(20));
    }
  }

  /**
   * A new Sentinel ({@code redis-server --sentinel}) on a free port, monitoring {@code primary} as
   * {@code mymaster}.
   */
  static RedisServerProcess startNewSentinel(RedisServerProcess primary) {
    RedisServerProcess p = new RedisServerProcess(findBinary(), freePort(), false, primary.port());
    p.start();
    return p;
  }

  public int port() {
    return port;
  }

  /** The server's version from {@code redis-server --version} ({@code v=...}), or "unknown". */
  public String version() {
    try {
      Process p = new ProcessBuilder(binary, "--version").redirectErrorStream(true).start();
      String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      p.waitFor(10, TimeUnit.SECONDS);
      for (String part : Pattern.compile("\\s+").split(out, -1)) {
        if (part.startsWith("v=")) {
          return part.substring(2);
        }
      }
      return out.trim();
    } catch (IOException e) {
      return "unknown";
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return "unknown";
    }
  }

  /** The process id of the running server, to send it signals. */
  long pid() {
    return process.pid();
  }

  public String uri() {
    return "redis://127.0.0.1:" + port;
  }

  /** Starts the server on its port (again, after {@link #stop()}); returns once it answers. */
  synchronized void start() {
    if (process.running()) {
      return;
    }
    List<String> cmd = new ArrayList<>();
    cmd.add(binary);
    if (sentinelOf != 0) {
      Path conf = dir.resolve("sentinel.conf"); // Sentinel rewrites its config file
      try {
        Files.writeString(
            conf,
            "sentinel monitor mymaster 127.0.0.1 " + sentinelOf + " 1\n",
            StandardCharsets.UTF_8);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      cmd.addAll(List.of(conf.toString(), "--sentinel"));
    }
    cmd.addAll(
        List.of(
            "--port",
            Integer.toString(port),
            "--bind",
            "127.0.0.1",
            "--daemonize",
            "no",
            "--protected-mode",
            "yes",
            "--dir",
            dir.toString()));
    if (sentinelOf == 0) {
      cmd.addAll(List.of("--save", "", "--appendonly", "no"));
    }
    if (cluster) {
      cmd.addAll(List.of("--cluster-enabled", "yes", "--cluster-config-file", "nodes.conf"));
    }
    try {
      process.launch(cmd, null);
    } catch (IOException e) {
      throw new IllegalStateException(INSTALL_HINT + " (" + e.getMessage() + ")", e);
    }
    process.awaitReady("answer on port " + port, Duration.ofSeconds(10), this::answersPing);
  }

  /** Stops the server abruptly (SIGKILL): no shutdown, data without persistence is lost. */
  void kill() {
    process.kill();
  }

  /** Stops the server (SIGTERM: it closes client connections and exits). */
  void stop() {
    process.stop();
  }

  /** Sends one inline command and returns the raw reply (for tests that inspect the server). */
  String command(String... words) {
    try (Socket s = new Socket()) {
      s.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 2000);
      s.setSoTimeout(5000);
      StringBuilder req = new StringBuilder("*" + words.length + "\r\n");
      for (String w : words) {
        req.append('$').append(w.getBytes(StandardCharsets.UTF_8).length).append("\r\n");
        req.append(w).append("\r\n");
      }
      s.getOutputStream().write(req.toString().getBytes(StandardCharsets.UTF_8));
      s.getOutputStream().flush();
      return RespReader.read(s.getInputStream());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private boolean answersPing() {
    try {
      return command("PING").contains("PONG");
    } catch (UncheckedIOException e) {
      return false;
    }
  }

  @Override
  public synchronized void close() {
    kill();
    ServerProcess.deleteTree(dir);
  }

  private static String findBinary() {
    return ServerProcess.findExecutable(
        "redis-server", "hostloom.redis.server", "REDIS_SERVER", INSTALL_HINT);
  }

  static int freePort() {
    return ServerProcess.freePort();
  }
}
