package io.hostloom.benchmarks.redis;

import io.hostloom.benchmarks.LocalServers;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.regex.Pattern;

/**
 * A {@code redis-server} on a free loopback port without persistence ({@code --save "" --appendonly
 * no}), started for the run and stopped after it.
 */
public final class RedisServer implements AutoCloseable {
  private final Process process;
  private final int port;
  private final String version;

  private RedisServer(Process process, int port, String version) {
    this.process = process;
    this.port = port;
    this.version = version;
  }

  /** Starts the server found in {@code $REDIS_SERVER}, /usr/bin/redis-server or the PATH. */
  public static RedisServer start(Path workDir) {
    String binary = binary();
    int port = LocalServers.freePort();
    Process p =
        LocalServers.start(
            List.of(
                binary,
                "--port",
                Integer.toString(port),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "no",
                "--dir",
                workDir.toString()),
            workDir.resolve("redis.log"));
    LocalServers.awaitPort(p, port, Duration.ofSeconds(10), "redis-server");
    return new RedisServer(p, port, versionOf(binary));
  }

  private static String binary() {
    String env = System.getenv("REDIS_SERVER");
    if (env != null && !env.isBlank()) {
      return env;
    }
    if (Files.isExecutable(Path.of("/usr/bin/redis-server"))) {
      return "/usr/bin/redis-server";
    }
    for (String dir : Pattern.compile(":").split(System.getenv().getOrDefault("PATH", ""), -1)) {
      Path p = Path.of(dir, "redis-server");
      if (Files.isExecutable(p)) {
        return p.toString();
      }
    }
    throw new IllegalStateException(
        "redis-server not found: install it (Debian/Ubuntu: sudo apt-get install -y"
            + " redis-server) or set REDIS_SERVER");
  }

  private static String versionOf(String binary) {
    try {
      Process p = new ProcessBuilder(binary, "--version").redirectErrorStream(true).start();
      String out =
          new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
      p.waitFor();
      for (String part : Pattern.compile("\\s+").split(out, -1)) {
        if (part.startsWith("v=")) {
          return part.substring(2);
        }
      }
      return out.trim();
    } catch (java.io.IOException e) {
      return "unknown";
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return "unknown";
    }
  }

  public int port() {
    return port;
  }

  public String version() {
    return version;
  }

  @Override
  public void close() {
    LocalServers.stop(process);
  }
}
