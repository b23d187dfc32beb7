package io.hostloom.locking;

/** What {@link DistributedLock#executeWithLock} does to a running action when its lease is lost. */
public enum OnLost {
  /**
   * The action keeps running; the loss is only reported ({@link LockHandle#lost()}, {@link
   * LockHandle#isHeld()}, log event 3102, {@code hostloom.lock.lost}). The default.
   */
  OBSERVE,
  /**
   * The thread running a blocking action is interrupted (only while the action runs); an async
   * action's future is cancelled. What the action then throws propagates unchanged.
   */
  CANCEL
}
