package io.hostloom.locking.rwlock;

import io.hostloom.locking.LockedCallable;
import io.hostloom.locking.OnLost;

/** Runs an action on a held handle and closes it; {@link OnLost#CANCEL} interrupts on loss. */
final class HeldAction {
  private HeldAction() {}

  static <T, X extends Exception> T run(
      ReadWriteHandle h, OnLost onLost, LockedCallable<T, X> action) throws X {
    Thread caller = Thread.currentThread();
    Object gate = new Object();
    boolean[] running = {true};
    try (h) {
      if (onLost == OnLost.CANCEL) {
        h.lost()
            .thenRun(
                () -> {
                  synchronized (gate) {
                    if (running[0]) {
                      caller.interrupt();
                    }
                  }
                });
      }
      return action.call(h);
    } finally {
      synchronized (gate) {
        running[0] = false;
      }
      if (onLost == OnLost.CANCEL && h.lost().isDone()) {
        Thread.interrupted(); // the loss's interrupt ends with the action
      }
    }
  }
}
