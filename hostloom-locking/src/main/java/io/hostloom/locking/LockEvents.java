package io.hostloom.locking;

import io.hostloom.locking.LockEventListener.AcquireFinished;
import io.hostloom.locking.LockEventListener.AcquireResult;
import io.hostloom.locking.LockEventListener.AcquireStarted;
import io.hostloom.locking.LockEventListener.ExecuteFinished;
import io.hostloom.locking.LockEventListener.ExecuteStarted;
import io.hostloom.locking.LockEventListener.ExtendResult;
import io.hostloom.locking.LockEventListener.Extended;
import io.hostloom.locking.LockEventListener.LeaseLost;
import io.hostloom.locking.LockEventListener.LockLifecycle;
import io.hostloom.locking.LockEventListener.OrphanReleased;
import io.hostloom.locking.LockEventListener.OrphanResult;
import io.hostloom.locking.LockEventListener.Released;
import org.slf4j.Logger;

/**
 * The lock's side of {@link LockEventListener}: builds the event records, for one namespace, only
 * when a listener is set (the hot path allocates nothing for {@link LockEventListener#NO_OP}), and
 * sends them through {@link SafeListener}.
 */
final class LockEvents {
  private final LockEventListener listener; // null: nobody listens
  private final String namespace;

  LockEvents(LockEventListener listener, String namespace, Logger log) {
    this.listener = listener == LockEventListener.NO_OP ? null : SafeListener.wrap(listener, log);
    this.namespace = namespace;
  }

  void lockOpened(boolean enabled) {
    if (listener != null) {
      listener.lockOpened(new LockLifecycle(namespace, enabled));
    }
  }

  void lockClosed(boolean enabled) {
    if (listener != null) {
      listener.lockClosed(new LockLifecycle(namespace, enabled));
    }
  }

  Object executeStarted(String key, boolean coordinated) {
    return listener == null
        ? null
        : listener.executeStarted(new ExecuteStarted(namespace, key, coordinated));
  }

  void executeFinished(Object context, String key, long holdNanos, Throwable failure) {
    if (listener != null) {
      listener.executeFinished(new ExecuteFinished(context, namespace, key, holdNanos, failure));
    }
  }

  Object acquireStarted(String key, Object parent) {
    return listener == null
        ? null
        : listener.acquireStarted(new AcquireStarted(namespace, key, parent));
  }

  void acquireFinished(
      Object context,
      String key,
      AcquireResult result,
      long waitedNanos,
      int attempts,
      Throwable failure) {
    if (listener != null) {
      listener.acquireFinished(
          new AcquireFinished(context, namespace, key, result, waitedNanos, attempts, failure));
    }
  }

  void leaseLost(String key, LossReason reason) {
    if (listener != null) {
      listener.leaseLost(new LeaseLost(namespace, key, reason));
    }
  }

  void released(String key, long holdNanos, boolean wasActive) {
    if (listener != null) {
      listener.released(new Released(namespace, key, holdNanos, wasActive));
    }
  }

  void extended(String key, ExtendResult result, boolean automatic) {
    if (listener != null) {
      listener.extended(new Extended(namespace, key, result, automatic));
    }
  }

  void orphanReleased(String key, OrphanResult result) {
    if (listener != null) {
      listener.orphanReleased(new OrphanReleased(namespace, key, result));
    }
  }
}
