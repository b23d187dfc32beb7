package io.hostloom.locking;

import org.slf4j.Logger;

/** Wraps a listener so that a failing callback is logged and never stops the lock's work. */
final class SafeListener implements LockEventListener {
  private final LockEventListener delegate;
  private final Logger log;

  SafeListener(LockEventListener delegate, Logger log) {
    this.delegate = delegate;
    this.log = log;
  }

  private void failed(String event, String key, RuntimeException e) {
    log.warn(
        "LockCancellationCallbackFailed [3107]: event listener failed on {} for lock '{}'",
        event,
        key,
        e);
  }

  @Override
  public void lockOpened(String namespace, boolean enabled) {
    try {
      delegate.lockOpened(namespace, enabled);
    } catch (RuntimeException e) {
      failed("lockOpened", "", e);
    }
  }

  @Override
  public void lockClosed(String namespace, boolean enabled) {
    try {
      delegate.lockClosed(namespace, enabled);
    } catch (RuntimeException e) {
      failed("lockClosed", "", e);
    }
  }

  @Override
  public Object executeStarted(String namespace, String key, boolean coordinated) {
    try {
      return delegate.executeStarted(namespace, key, coordinated);
    } catch (RuntimeException e) {
      failed("executeStarted", key, e);
      return null;
    }
  }

  @Override
  public void executeFinished(
      Object context, String namespace, String key, long holdNanos, Throwable failure) {
    try {
      delegate.executeFinished(context, namespace, key, holdNanos, failure);
    } catch (RuntimeException e) {
      failed("executeFinished", key, e);
    }
  }

  @Override
  public Object acquireStarted(String namespace, String key, Object parent) {
    try {
      return delegate.acquireStarted(namespace, key, parent);
    } catch (RuntimeException e) {
      failed("acquireStarted", key, e);
      return null;
    }
  }

  @Override
  public void acquireFinished(
      Object context,
      String namespace,
      String key,
      AcquireResult result,
      long waitedNanos,
      int attempts,
      Throwable failure) {
    try {
      delegate.acquireFinished(context, namespace, key, result, waitedNanos, attempts, failure);
    } catch (RuntimeException e) {
      failed("acquireFinished", key, e);
    }
  }

  @Override
  public void leaseLost(String namespace, String key, LossReason reason) {
    try {
      delegate.leaseLost(namespace, key, reason);
    } catch (RuntimeException e) {
      failed("leaseLost", key, e);
    }
  }

  @Override
  public void released(String namespace, String key, long holdNanos, boolean wasActive) {
    try {
      delegate.released(namespace, key, holdNanos, wasActive);
    } catch (RuntimeException e) {
      failed("released", key, e);
    }
  }

  @Override
  public void extended(String namespace, String key, ExtendResult result, boolean automatic) {
    try {
      delegate.extended(namespace, key, result, automatic);
    } catch (RuntimeException e) {
      failed("extended", key, e);
    }
  }

  @Override
  public void orphanReleased(String namespace, String key, OrphanResult result) {
    try {
      delegate.orphanReleased(namespace, key, result);
    } catch (RuntimeException e) {
      failed("orphanReleased", key, e);
    }
  }
}
