package io.hostloom.cli;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * Runs the user's command for {@code lock} and {@code leader}: a caught SIGINT/SIGTERM/SIGHUP is
 * passed on to the command (SIGKILL after the grace period) or, before the command started, ends
 * the wait for the lock; the end of the lease or term stops the command the same way with SIGTERM.
 */
final class Supervisor {
  private final Duration grace;
  private final Thread waiter;
  private final CompletableFuture<String> signalled = new CompletableFuture<>();
  private volatile ChildCommand child;

  /** Catches the signals from now on; {@code waiter} is interrupted by one when no command runs. */
  Supervisor(Duration grace, Thread waiter) {
    this.grace = grace;
    this.waiter = waiter;
    Signals.install(this::onSignal);
  }

  private void onSignal(String name) {
    signalled.complete(name);
    ChildCommand c = child;
    if (c != null) {
      c.terminate(name, grace);
    } else {
      waiter.interrupt();
    }
  }

  /** The first signal caught, or {@code null}. */
  String caughtSignal() {
    return signalled.getNow(null);
  }

  /**
   * Runs {@code argv} until it exits. When {@code stop} completes first, the command gets SIGTERM,
   * then SIGKILL after the grace period; this method still waits for it to exit. Interrupts of the
   * calling thread do not end the wait (the command decides when it is done).
   *
   * @return the command's exit status
   * @throws ChildCommand.StartFailure when it cannot be started
   */
  int run(List<String> argv, Map<String, String> env, CompletableFuture<?> stop)
      throws ChildCommand.StartFailure {
    ChildCommand c = ChildCommand.start(argv, env);
    child = c;
    try {
      CompletableFuture<?> unused = stop.whenComplete((v, e) -> c.terminate("TERM", grace));
      boolean interrupted = false;
      while (true) {
        String caught = caughtSignal();
        if (caught != null) {
          c.terminate(caught, grace); // caught before the command was registered
        }
        try {
          int status = c.waitFor();
          if (interrupted) {
            Thread.interrupted(); // the interrupt meant the signal, handled above
          }
          return status;
        } catch (InterruptedException e) {
          interrupted = true;
        }
      }
    } finally {
      child = null;
    }
  }
}
