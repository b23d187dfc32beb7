package io.hostloom.scheduling;

/**
 * Interrupts the thread running a job, only while the job runs, and clears the flag it set when the
 * job ends so the interruption cannot leak into the executor's next task.
 */
final class RunInterrupter {
  private Thread thread;
  private boolean interrupted;

  synchronized void enter(Thread running) {
    thread = running;
    interrupted = false;
  }

  /** Interrupts the job if it still runs. */
  synchronized void interrupt() {
    if (thread != null) {
      interrupted = true;
      thread.interrupt();
    }
  }

  /** Called by the job's thread when the job ended. */
  synchronized void exit() {
    thread = null;
    if (interrupted) {
      Thread.interrupted();
    }
  }
}
