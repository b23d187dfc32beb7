package io.hostloom.cli;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The user's command, run with hostloom's stdin, stdout and stderr and extra environment variables.
 * Signals reach the command's own process only (not processes it started): a shell script should
 * {@code exec} its last program or trap the signals.
 */
final class ChildCommand {
  private final Process process;
  private final AtomicBoolean terminating = new AtomicBoolean();

  private ChildCommand(Process process) {
    this.process = process;
  }

  /**
   * Starts {@code argv} with {@code env} added to hostloom's environment.
   *
   * @throws StartFailure when the program is missing or not executable
   */
  static ChildCommand start(List<String> argv, Map<String, String> env) throws StartFailure {
    ProcessBuilder pb = new ProcessBuilder(argv).inheritIO();
    pb.environment().putAll(env);
    try {
      return new ChildCommand(pb.start());
    } catch (IOException e) {
      String m = String.valueOf(e.getMessage());
      boolean denied = m.contains("error=13") || m.contains("Permission denied");
      throw new StartFailure(
          denied ? ExitCodes.NOT_EXECUTABLE : ExitCodes.NOT_FOUND,
          "cannot run '" + argv.get(0) + "': " + (denied ? "permission denied" : "not found"));
    }
  }

  /** Waits for the command; its exit status ({@code 128 + n} when signal {@code n} ended it). */
  int waitFor() throws InterruptedException {
    return process.waitFor();
  }

  boolean isAlive() {
    return process.isAlive();
  }

  long pid() {
    return process.pid();
  }

  CompletableFuture<Process> onExit() {
    return process.onExit();
  }

  /**
   * Sends signal {@code name} ({@code TERM}, {@code INT}, {@code HUP}) to the command. SIGTERM goes
   * through {@link Process#destroy()}; the others through {@code kill -s}, falling back to SIGTERM
   * when that fails.
   */
  void signal(String name) {
    if (!process.isAlive()) {
      return;
    }
    if (!name.equals("TERM")) {
      try {
        Process kill =
            new ProcessBuilder("kill", "-s", name, Long.toString(process.pid()))
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .start();
        if (exitedWithin(kill, Duration.ofSeconds(5)) && kill.exitValue() == 0) {
          return;
        }
      } catch (IOException e) {
        // no kill(1): fall back to SIGTERM
      }
    }
    process.destroy();
  }

  /**
   * Waits for {@code p} within {@code bound}, through interrupts: the supervisor's thread may carry
   * the interrupt that announced this very signal, which must not turn a SIGINT into the SIGTERM
   * fallback. The interrupt status is restored afterwards.
   */
  private static boolean exitedWithin(Process p, Duration bound) {
    long deadline = System.nanoTime() + bound.toNanos();
    boolean interrupted = false;
    try {
      while (true) {
        try {
          return p.waitFor(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
          interrupted = true;
        }
      }
    } finally {
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }

  /**
   * Stops the command: signal {@code name} now, SIGKILL when it is still running {@code grace}
   * after the first call. Every call signals; only the first starts the grace period. Does not
   * wait.
   */
  void terminate(String name, Duration grace) {
    signal(name);
    if (!terminating.compareAndSet(false, true)) {
      return;
    }
    CompletableFuture.delayedExecutor(grace.toNanos(), TimeUnit.NANOSECONDS)
        .execute(
            () -> {
              if (process.isAlive()) {
                process.destroyForcibly();
              }
            });
  }

  /** The command could not be started: the exit code and a message say why. */
  static final class StartFailure extends Exception {
    private static final long serialVersionUID = 1L;
    private final int exitCode;

    StartFailure(int exitCode, String message) {
      super(message);
      this.exitCode = exitCode;
    }

    int exitCode() {
      return exitCode;
    }
  }
}
