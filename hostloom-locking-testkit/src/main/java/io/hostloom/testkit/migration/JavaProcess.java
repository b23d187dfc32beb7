package io.hostloom.testkit.migration;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A {@code main} class in a JVM of its own, on the test's class path (Surefire's, not its booter
 * jar), talking line by line over stdin/stdout; stderr goes to a file for the failure message.
 * {@link #close()} kills it if it still runs.
 */
public final class JavaProcess implements AutoCloseable {
  private final Process process;
  private final BufferedReader out;
  private final PrintWriter in;
  private final Path stderr;

  private JavaProcess(Process process, Path stderr) {
    this.process = process;
    this.stderr = stderr;
    this.out =
        new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
    this.in = new PrintWriter(process.getOutputStream(), true, StandardCharsets.UTF_8);
  }

  /** Starts {@code main} with {@code args}, its stderr into {@code stderr}. */
  public static JavaProcess start(Class<?> main, List<String> args, Path stderr) {
    List<String> cmd = new ArrayList<>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    cmd.addAll(List.of("-Xmx128m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1"));
    cmd.addAll(List.of("-cp", classPath(), main.getName()));
    cmd.addAll(args);
    try {
      Process p =
          new ProcessBuilder(cmd)
              .redirectError(ProcessBuilder.Redirect.to(stderr.toFile()))
              .start();
      return new JavaProcess(p, stderr);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot start " + main.getName(), e);
    }
  }

  /** The next line the process printed; fails with its stderr when it ended without one. */
  public String readLine() {
    try {
      String line = out.readLine();
      if (line == null) {
        throw new IllegalStateException("process ended without output; stderr:\n" + stderrTail());
      }
      return line;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Sends one line to the process's stdin. */
  public void writeLine(String line) {
    in.println(line);
  }

  /** Waits for the process to exit within {@code timeout}; returns its exit code. */
  public int awaitExit(Duration timeout) throws InterruptedException {
    if (!process.waitFor(timeout.toNanos(), TimeUnit.NANOSECONDS)) {
      throw new IllegalStateException(
          "process still running after " + timeout + "; stderr:\n" + stderrTail());
    }
    return process.exitValue();
  }

  /** The last lines of the process's stderr. */
  public String stderrTail() {
    try {
      List<String> lines = Files.readAllLines(stderr, StandardCharsets.UTF_8);
      return String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size()));
    } catch (IOException e) {
      return "(stderr unreadable: " + e + ")";
    }
  }

  @Override
  public void close() {
    process.destroyForcibly();
  }

  private static String classPath() {
    String cp = System.getProperty("surefire.test.class.path");
    return cp != null && !cp.isBlank() ? cp : System.getProperty("java.class.path");
  }
}
