package io.hostloom.locking;

/**
 * {@link OnLost#CANCEL} for a blocking action: interrupts the thread running the action, only while
 * it runs, and clears that interrupt when the action ends so it cannot leak into the caller's later
 * code.
 */
final class ActionInterrupter implements Runnable {
  private final Thread thread;
  private boolean running = true;
  private boolean interrupted;

  ActionInterrupter(Thread thread) {
    this.thread = thread;
  }

  @Override
  public synchronized void run() {
    if (running) {
      interrupted = true;
      thread.interrupt();
    }
  }

  /** Called by the action's thread when the action has ended. */
  void end() {
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
