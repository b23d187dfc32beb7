package io.hostloom.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.hostloom.testkit.TestTiming;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * {@code hostloom} as a real process: {@code java -cp <the test class path> io.hostloom.cli.Main},
 * with its stdout and stderr in files of the test's directory.
 */
final class Hostloom {
  private static final AtomicInteger SEQ = new AtomicInteger();

  final Process process;
  private final Path out;
  private final Path err;

  private Hostloom(Process process, Path out, Path err) {
    this.process = process;
    this.out = out;
    this.err = err;
  }

  /** Starts {@code hostloom args...} in {@code dir} with {@code env} added. */
  static Hostloom start(Path dir, Map<String, String> env, String... args) {
    List<String> cmd = new ArrayList<>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    // a short-lived JVM: start fast, use little memory on a shared machine
    cmd.addAll(List.of("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Xmx128m", "-Xss512k"));
    cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), Main.class.getName()));
    cmd.addAll(List.of(args));
    int n = SEQ.incrementAndGet();
    Path out = dir.resolve("hostloom-" + n + ".out");
    Path err = dir.resolve("hostloom-" + n + ".err");
    ProcessBuilder pb =
        new ProcessBuilder(cmd)
            .directory(dir.toFile())
            .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
            .redirectOutput(out.toFile())
            .redirectError(err.toFile());
    pb.environment().keySet().removeIf(k -> k.startsWith("HOSTLOOM_"));
    pb.environment().putAll(env);
    try {
      return new Hostloom(pb.start(), out, err);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Runs {@code hostloom args...} to its end (bounded) and returns it. */
  static Hostloom run(Path dir, Map<String, String> env, String... args) {
    Hostloom h = start(dir, env, args);
    h.awaitExit();
    return h;
  }

  /** Waits (bounded) for the exit and returns the exit code. */
  int awaitExit() {
    try {
      if (!process.waitFor(
          TestTiming.scaled(Duration.ofSeconds(60)).toMillis(), TimeUnit.MILLISECONDS)) {
        process.destroyForcibly();
        throw new AssertionError("hostloom did not exit; stderr: " + stderr());
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(e);
    }
    return process.exitValue();
  }

  /** Asserts the exit code (stderr in the message) once it exited. */
  Hostloom assertExit(int expected) {
    int code = awaitExit();
    assertThat(code)
        .as("exit code; stdout: %s; stderr: %s", stdout(), stderr())
        .isEqualTo(expected);
    return this;
  }

  String stdout() {
    return read(out);
  }

  String stderr() {
    return read(err);
  }

  /** Sends {@code signal} (e.g. {@code TERM}, {@code INT}, {@code KILL}) to the hostloom JVM. */
  void signal(String signal) {
    signal(process.pid(), signal);
  }

  static void signal(long pid, String signal) {
    try {
      Process kill = new ProcessBuilder("kill", "-s", signal, Long.toString(pid)).start();
      assertThat(kill.waitFor(10, TimeUnit.SECONDS)).isTrue();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(e);
    }
  }

  static String read(Path file) {
    try {
      return Files.exists(file) ? Files.readString(file, StandardCharsets.UTF_8) : "";
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Waits (bounded) until {@code file} exists. */
  static void awaitFile(Path file) {
    TestTiming.await(file + " to exist", () -> Files.exists(file), Duration.ofSeconds(60));
  }
}
