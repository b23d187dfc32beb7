package io.hostloom.benchmarks;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Helpers to start the servers the benchmarks run against, as local processes on loopback. */
public final class LocalServers {
  private LocalServers() {}

  /** A free TCP port on 127.0.0.1. */
  public static int freePort() {
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return s.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Waits until 127.0.0.1:{@code port} accepts connections, or fails after {@code max}. */
  public static void awaitPort(Process p, int port, Duration max, String what) {
    long deadline = System.nanoTime() + max.toNanos();
    while (System.nanoTime() - deadline < 0) {
      if (!p.isAlive()) {
        throw new IllegalStateException(what + " exited with " + p.exitValue());
      }
      try (Socket s = new Socket()) {
        s.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 200);
        return;
      } catch (IOException e) {
        sleep(50);
      }
    }
    p.destroyForcibly();
    throw new IllegalStateException(what + " did not open port " + port + " within " + max);
  }

  /** Starts {@code command}, output to {@code log}; the process dies with this JVM. */
  public static Process start(List<String> command, Path log) {
    try {
      Files.createDirectories(log.getParent());
      Process p =
          new ProcessBuilder(command)
              .redirectErrorStream(true)
              .redirectOutput(log.toFile())
              .start();
      Runtime.getRuntime().addShutdownHook(new Thread(p::destroyForcibly));
      return p;
    } catch (IOException e) {
      throw new IllegalStateException(
          "cannot start " + command.get(0) + " (" + e.getMessage() + ")", e);
    }
  }

  /** Stops {@code p}: terminate, then kill after 5 s. */
  public static void stop(Process p) {
    p.destroy();
    try {
      if (!p.waitFor(5, TimeUnit.SECONDS)) {
        p.destroyForcibly();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      p.destroyForcibly();
    }
  }

  /** Deletes {@code dir} and everything under it; best effort. */
  public static void deleteTree(Path dir) {
    try (java.util.stream.Stream<Path> files = Files.walk(dir)) {
      files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (IOException | RuntimeException e) {
      // best effort
    }
  }

  /** Sleeps, keeping the interrupt flag. */
  public static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
