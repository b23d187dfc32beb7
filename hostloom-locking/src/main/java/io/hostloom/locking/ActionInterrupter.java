package io.hostloom.locking;

/**
 * {@link OnLost#CANCEL} for a blocking action: interrupts the thread running the action, only while
 * it runs, and clears that interrupt when the action ends so it cannot leak into the caller's later
 * code. Public so that primitives built on {@link LockHandle} (the semaphore, the reader-writer
 * lock, users' own) apply {@code CANCEL} exactly as {@code executeWithLock} does.
 *
 * <p>Use: create it on the action's thread, run it when the grant is lost ({@code
 * handle.lost().thenRun(interrupter)}), and call {@link #end()} on that thread in a {@code finally}
 * after the action.
 */
public final class ActionInterrupter implements Runnable {
  private final Thread thread;
  private boolean running = true;
  private boolean interrupted;

  /** An interrupter for {@code thread}, the thread that runs the action. */
  public ActionInterrupter(Thread thread) {
    this.thread = thread;
  }

  /** Interrupts the action's thread if the action still runs; otherwise does nothing. */
  @Override
  public synchronized void run() {
    if (running) {
      interrupted = true;
      thread.interrupt();
    }
  }

  /**
   * Called by the action's thread when the action has ended: later runs do nothing, and an
   * interrupt this interrupter caused is cleared (the thread's own interrupts are kept).
   */
  public void end() {
    boolean clear;
    synchronized (this) {
      running = false;
      clear = interrupted;
    }
    if (clear) {
      Thread.interrupted();
    }
  }
}
