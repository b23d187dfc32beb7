package io.hostloom.testkit.server;

import io.hostloom.testkit.TestTiming;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * One real server process a test starts, waits for, stops and starts again: what the backends' test
 * launchers (etcd, Redis, MariaDB, Azurite) share, so each keeps only its command line and its
 * readiness check.
 *
 * <p>The process's stdout and stderr are appended to one log file, kept across restarts; failures
 * quote the log's tail. {@link #launch} starts the command, {@link #awaitReady} polls until the
 * server answers (failing at once when the process exits), {@link #stop()} (SIGTERM) and {@link
 * #kill()} (SIGKILL) end it and wait for the exit. Thread-safe; one instance per server, reused
 * across restarts.
 *
 * <p>The static helpers are the launchers' other shared pieces: a free loopback port, finding an
 * executable, deleting a temporary directory.
 */
public final class ServerProcess {
  private static final int LOG_TAIL_CHARS = 4000;
  private static final long POLL_MILLIS = 20;

  private final String name;
  private final Path log;
  private final Duration stopTimeout;
  private Process process;

  /**
   * @param name the server's name in messages, e.g. {@code etcd}
   * @param log the file the process's output is appended to; its directory must exist
   * @param stopTimeout how long {@link #stop()} and {@link #kill()} wait for the exit before a
   *     SIGKILL (then up to 10 s more)
   */
  public ServerProcess(String name, Path log, Duration stopTimeout) {
    this.name = Objects.requireNonNull(name, "name");
    this.log = Objects.requireNonNull(log, "log");
    this.stopTimeout = Objects.requireNonNull(stopTimeout, "stopTimeout");
  }

  /**
   * Starts {@code command} in {@code directory} (null: the JVM's working directory), output
   * appended to the log. Does not wait for the server; see {@link #awaitReady}.
   *
   * @throws IllegalStateException when the process is already running
   * @throws IOException when the process cannot be started (typically: no such executable)
   */
  public synchronized void launch(List<String> command, Path directory) throws IOException {
    if (running()) {
      throw new IllegalStateException(name + " is running");
    }
    ProcessBuilder builder =
        new ProcessBuilder(command)
            .redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
    if (directory != null) {
      builder.directory(directory.toFile());
    }
    process = builder.start();
  }

  /**
   * Polls {@code ready} every 20 ms until it is true.
   *
   * @param what what the server must do, for the timeout message, e.g. {@code "answer on port
   *     6379"}
   * @param timeout the unscaled bound ({@link TestTiming#scaled})
   * @throws IllegalStateException when the process exits first or the scaled timeout passes, naming
   *     {@code what}, with the log's tail
   */
  public void awaitReady(String what, Duration timeout, BooleanSupplier ready) {
    long deadline = System.nanoTime() + TestTiming.scaled(timeout).toNanos();
    while (true) {
      Process p;
      synchronized (this) {
        p = process;
      }
      if (p == null || !p.isAlive()) {
        throw new IllegalStateException(
            name
                + " exited with "
                + (p == null ? "?" : p.exitValue())
                + " before it could "
                + what
                + ": "
                + logTail());
      }
      if (ready.getAsBoolean()) {
        return;
      }
      if (System.nanoTime() - deadline >= 0) {
        throw new IllegalStateException(name + " did not " + what + ": " + logTail());
      }
      pause();
    }
  }

  /** Whether the process is running. */
  public synchronized boolean running() {
    return process != null && process.isAlive();
  }

  /** The running process's id, to send it signals. */
  public synchronized long pid() {
    if (process == null) {
      throw new IllegalStateException(name + " was never started");
    }
    return process.pid();
  }

  /** SIGTERM: the server shuts down cleanly; returns once it has exited. No-op when not started. */
  public synchronized void stop() {
    end(false);
  }

  /** SIGKILL: the server vanishes; returns once it has exited. No-op when not started. */
  public synchronized void kill() {
    end(true);
  }

  private void end(boolean forcibly) {
    if (process == null) {
      return;
    }
    if (forcibly) {
      process.destroyForcibly();
    } else {
      process.destroy();
    }
    try {
      if (!process.waitFor(stopTimeout.toMillis(), TimeUnit.MILLISECONDS)) {
        process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** The last 4000 characters of the log, or why there is none. */
  public String logTail() {
    try {
      String text = Files.readString(log, StandardCharsets.UTF_8);
      return text.length() > LOG_TAIL_CHARS ? text.substring(text.length() - LOG_TAIL_CHARS) : text;
    } catch (IOException e) {
      return "(no log: " + e.getMessage() + ")";
    }
  }

  private void pause() {
    try {
      Thread.sleep(POLL_MILLIS); // waiting for an external process to come up, not lock timing
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while starting " + name, e);
    }
  }

  // ---------------------------------------------------------------- shared launcher helpers

  /** A loopback port nobody listens on right now. */
  public static int freePort() {
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      s.setReuseAddress(true);
      return s.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * The executable {@code name}: the path in system property {@code property} or else environment
   * variable {@code envVariable} when set, else {@code /usr/bin/<name>}, else the first on the
   * {@code PATH}.
   *
   * @throws IllegalStateException with {@code installHint} when none is executable
   */
  public static String findExecutable(
      String name, String property, String envVariable, String installHint) {
    String configured = System.getProperty(property, System.getenv(envVariable));
    if (configured != null && !configured.isBlank()) {
      if (new File(configured).canExecute()) {
        return configured;
      }
      throw new IllegalStateException(
          configured
              + " ("
              + property
              + " / "
              + envVariable
              + ") is not executable. "
              + installHint);
    }
    File usrBin = new File("/usr/bin", name);
    if (usrBin.canExecute()) {
      return usrBin.getPath();
    }
    String path = System.getenv("PATH");
    if (path != null) {
      for (String dir : Pattern.compile(Pattern.quote(File.pathSeparator)).split(path, -1)) {
        File f = new File(dir, name);
        if (f.canExecute()) {
          return f.getPath();
        }
      }
    }
    throw new IllegalStateException(installHint);
  }

  /** Deletes {@code dir} and everything below it, as far as it can (a temporary directory). */
  public static void deleteTree(Path dir) {
    try (Stream<Path> files = Files.walk(dir)) {
      files.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
    } catch (IOException | UncheckedIOException e) {
      // a temp dir left behind is harmless
    }
  }
}
