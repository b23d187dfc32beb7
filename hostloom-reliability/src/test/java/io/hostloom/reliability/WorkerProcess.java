package io.hostloom.reliability;

import io.hostloom.testkit.LockEvent;
import io.hostloom.testkit.LockHistory;
import io.hostloom.testkit.TestTiming;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * A {@link LockWorker} running in a JVM of its own, as the test sees it: its stdout lines, its
 * ledger, its pid, and the faults a test inflicts on it ({@code kill -9}, {@code SIGSTOP}, {@code
 * SIGCONT}).
 *
 * <p>Cleanup never depends on the test finishing: {@link #close()} kills the process; every worker
 * still alive when the test JVM exits is killed by a shutdown hook; and a worker whose test JVM
 * died (killed without hooks) sees its stdin end and stops on its own, or halts at its deadline.
 */
final class WorkerProcess implements AutoCloseable {
  private static final Set<WorkerProcess> LIVE = ConcurrentHashMap.newKeySet();

  static {
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(() -> LIVE.forEach(WorkerProcess::close), "reliability-workers-stop"));
  }

  private final String label;
  private final Process process;
  private final Path ledger;
  private final Path errors;
  private final List<String> lines = new ArrayList<>(); // guarded by itself
  private final OutputStream control;
  private final Thread reader;

  private WorkerProcess(String label, Process process, Path ledger, Path errors) {
    this.label = label;
    this.process = process;
    this.ledger = ledger;
    this.errors = errors;
    this.control = process.getOutputStream();
    this.reader = new Thread(this::readStdout, "worker-" + label + "-stdout");
    reader.setDaemon(true);
    reader.start();
  }

  /**
   * Starts a worker labelled {@code label} with {@code args} (see {@link LockWorker}); its ledger
   * and stderr go to {@code dir}.
   */
  static WorkerProcess start(String label, Path dir, Map<String, String> args) {
    Path ledger = dir.resolve(label + ".ledger");
    Path errors = dir.resolve(label + ".stderr");
    Map<String, String> all = new LinkedHashMap<>(args);
    all.put("id", label);
    all.put("ledger", ledger.toString());
    List<String> cmd = new ArrayList<>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    // small, quick-starting JVMs: several run at once on a small machine; a soak worker keeps
    // hundreds of thousands of events in its LockHistory
    cmd.addAll(
        List.of(
            Soak.enabled() ? "-Xmx1g" : "-Xmx128m",
            "-XX:+UseSerialGC",
            "-XX:TieredStopAtLevel=1",
            "-Xshare:auto",
            "-D" + TestTiming.TIME_FACTOR_PROPERTY + "=" + TestTiming.factor(),
            "-cp",
            classPath(),
            LockWorker.class.getName()));
    all.forEach((k, v) -> cmd.add(k + "=" + v));
    try {
      Process p =
          new ProcessBuilder(cmd)
              .redirectError(ProcessBuilder.Redirect.to(errors.toFile()))
              .start();
      WorkerProcess w = new WorkerProcess(label, p, ledger, errors);
      LIVE.add(w);
      return w;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot start worker " + label, e);
    }
  }

  String label() {
    return label;
  }

  long pid() {
    return process.pid();
  }

  Path ledger() {
    return ledger;
  }

  boolean isAlive() {
    return process.isAlive();
  }

  /** The events this worker has appended to its ledger so far (a torn last line is skipped). */
  List<LockEvent> events() {
    return Files.exists(ledger) ? LockHistory.readLedger(ledger) : List.of();
  }

  /** Sends {@code GO} to a worker started with {@code waitForGo=true}. */
  void go() {
    try {
      control.write("GO\n".getBytes(StandardCharsets.UTF_8));
      control.flush();
    } catch (IOException e) {
      throw new UncheckedIOException("worker " + label + " is not listening: " + diagnostics(), e);
    }
  }

  /** Waits for the first stdout line starting with {@code prefix} and returns it. */
  String await(String prefix, Duration timeout) {
    TestTiming.await(
        this + " prints " + prefix, () -> first(prefix).isPresent() || !process.isAlive(), timeout);
    if (first(prefix).isEmpty()) {
      try {
        reader.join(TimeUnit.SECONDS.toMillis(5)); // exited: take its last lines
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    return first(prefix)
        .orElseThrow(() -> new AssertionError(this + " exited without " + prefix + diagnostics()));
  }

  /** The stdout lines starting with {@code prefix}, in order. */
  List<String> lines(String prefix) {
    List<String> out = new ArrayList<>();
    synchronized (lines) {
      for (String l : lines) {
        if (l.startsWith(prefix)) {
          out.add(l);
        }
      }
    }
    return out;
  }

  private Optional<String> first(String prefix) {
    synchronized (lines) {
      return lines.stream().filter(l -> l.startsWith(prefix)).findFirst();
    }
  }

  /**
   * Asks the worker to stop (closes its stdin), waits for its {@code @STATS} line and its exit, and
   * returns the statistics.
   */
  Map<String, Long> stop(Duration timeout) {
    try {
      control.close();
    } catch (IOException e) {
      // already gone: the statistics line tells
    }
    return awaitStats(timeout);
  }

  /** Waits until the worker ends by itself and returns its {@code @STATS}. */
  Map<String, Long> awaitStats(Duration timeout) {
    String stats = await("@STATS", timeout);
    await("@DONE", timeout);
    try {
      if (!process.waitFor(TestTiming.scaled(timeout).toMillis(), TimeUnit.MILLISECONDS)) {
        throw new AssertionError("worker " + label + " did not exit" + diagnostics());
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
    assertNoErrors();
    Map<String, Long> out = new HashMap<>();
    for (String pair : stats.substring("@STATS ".length()).split(" ", -1)) {
      int eq = pair.indexOf('=');
      out.put(pair.substring(0, eq), Long.parseLong(pair.substring(eq + 1)));
    }
    return out;
  }

  /** Field {@code index} (0 is the {@code @TAG}) of a space-separated report line. */
  static String field(String line, int index) {
    return line.split(" ", -1)[index];
  }

  /** {@link #field} as a number. */
  static long number(String line, int index) {
    return Long.parseLong(field(line, index));
  }

  /** Fails when the worker reported an error. */
  void assertNoErrors() {
    List<String> errs = lines("@ERROR");
    if (!errs.isEmpty()) {
      throw new AssertionError("worker " + label + " failed: " + errs + diagnostics());
    }
  }

  /** {@code kill -9}: the JVM vanishes without running anything. Returns when it is gone. */
  void kill() {
    process.destroyForcibly();
    try {
      if (!process.waitFor(30, TimeUnit.SECONDS)) {
        throw new AssertionError("worker " + label + " survived SIGKILL");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
    LIVE.remove(this);
  }

  /**
   * {@code kill -STOP}: freezes every thread of the worker, as a long GC pause or VM stall would.
   */
  void pause() {
    signal("STOP");
  }

  /** {@code kill -CONT}: resumes a paused worker. */
  void resume() {
    signal("CONT");
  }

  private void signal(String name) {
    try {
      Process kill = new ProcessBuilder("kill", "-" + name, Long.toString(pid())).start();
      if (!kill.waitFor(10, TimeUnit.SECONDS) || kill.exitValue() != 0) {
        throw new AssertionError("kill -" + name + " " + pid() + " failed");
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot run kill -" + name, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /** The worker's stderr tail and stdout, for failure messages. */
  String diagnostics() {
    String err;
    try {
      err = Files.exists(errors) ? Files.readString(errors) : "";
    } catch (IOException e) {
      err = "(unreadable: " + e + ")";
    }
    if (err.length() > 4000) {
      err = "..." + err.substring(err.length() - 4000);
    }
    List<String> out;
    synchronized (lines) {
      out = new ArrayList<>(lines.subList(Math.max(0, lines.size() - 20), lines.size()));
    }
    return "\n--- worker " + label + " stdout (last lines): " + out + "\n--- stderr:\n" + err;
  }

  /** Kills the worker if it still runs (resuming it first, should it be paused). */
  @Override
  public void close() {
    if (process.isAlive()) {
      try {
        new ProcessBuilder("kill", "-CONT", Long.toString(pid()))
            .start()
            .waitFor(5, TimeUnit.SECONDS);
      } catch (IOException e) {
        // SIGKILL below works on a stopped process too
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      process.destroyForcibly();
      try {
        process.waitFor(10, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    LIVE.remove(this);
  }

  @Override
  public String toString() {
    return "worker " + label + " (pid " + process.pid() + ")";
  }

  private void readStdout() {
    try (BufferedReader in =
        new BufferedReader(
            new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
      String line;
      while ((line = in.readLine()) != null) {
        synchronized (lines) {
          lines.add(line);
        }
      }
    } catch (IOException e) {
      // the process ended
    }
  }

  private static String classPath() {
    String cp = System.getProperty("surefire.test.class.path");
    return cp != null && !cp.isBlank() ? cp : System.getProperty("java.class.path");
  }
}
