package io.hostloom.locking.rwlock;

import io.hostloom.locking.ActionInterrupter;
import io.hostloom.locking.LockedCallable;
import io.hostloom.locking.OnLost;

/** Runs an action on a held handle and closes it; {@link OnLost#CANCEL} interrupts on loss. */
final class HeldAction {
  private HeldAction() {}

  static <T, X extends Exception> T run(
      ReadWriteHandle h, OnLost onLost, LockedCallable<T, X> action) throws X {
    try (h) {
      ActionInterrupter interrupter =
          onLost == OnLost.CANCEL ? new ActionInterrupter(Thread.currentThread()) : null;
      if (interrupter != null) {
        var unused = h.lost().thenRun(interrupter);
      }
      try {
        return action.call(h);
      } finally {
        if (interrupter != null) {
          interrupter.end();
        }
      }
    }
  }
}
