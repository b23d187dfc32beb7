package io.hostloom.locking;

import org.slf4j.Logger;

/**
 * Wraps a listener so that a failing callback is logged (3107) and never stops the lock's work; a
 * failing {@code *Started} callback yields a null context. Each listener of a {@link
 * LockEventListener#composite composite} is wrapped on its own, so one failing listener costs
 * neither the others' callbacks nor their contexts.
 */
final class SafeListener implements LockEventListener {
  private final LockEventListener delegate;
  private final Logger log;

  private SafeListener(LockEventListener delegate, Logger log) {
    this.delegate = delegate;
    this.log = log;
  }

  /** {@code listener} isolated; {@link #NO_OP} stays itself. */
  static LockEventListener wrap(LockEventListener listener, Logger log) {
    if (listener == NO_OP || listener instanceof SafeListener) {
      return listener;
    }
    if (listener instanceof CompositeLockEventListener c) {
      return c.map(l -> wrap(l, log));
    }
    return new SafeListener(listener, log);
  }

  private void failed(String event, String key, RuntimeException e) {
    log.warn(
        "LockCancellationCallbackFailed [3107]: event listener failed on {} for lock '{}'",
        event,
        key,
        e);
  }

  @Override
  public void lockOpened(LockLifecycle event) {
    try {
      delegate.lockOpened(event);
    } catch (RuntimeException e) {
      failed("lockOpened", "", e);
    }
  }

  @Override
  public void lockClosed(LockLifecycle event) {
    try {
      delegate.lockClosed(event);
    } catch (RuntimeException e) {
      failed("lockClosed", "", e);
    }
  }

  @Override
  public Object executeStarted(ExecuteStarted event) {
    try {
      return delegate.executeStarted(event);
    } catch (RuntimeException e) {
      failed("executeStarted", event.key(), e);
      return null;
    }
  }

  @Override
  public void executeFinished(ExecuteFinished event) {
    try {
      delegate.executeFinished(event);
    } catch (RuntimeException e) {
      failed("executeFinished", event.key(), e);
    }
  }

  @Override
  public Object acquireStarted(AcquireStarted event) {
    try {
      return delegate.acquireStarted(event);
    } catch (RuntimeException e) {
      failed("acquireStarted", event.key(), e);
      return null;
    }
  }

  @Override
  public void acquireFinished(AcquireFinished event) {
    try {
      delegate.acquireFinished(event);
    } catch (RuntimeException e) {
      failed("acquireFinished", event.key(), e);
    }
  }

  @Override
  public void leaseLost(LeaseLost event) {
    try {
      delegate.leaseLost(event);
    } catch (RuntimeException e) {
      failed("leaseLost", event.key(), e);
    }
  }

  @Override
  public void released(Released event) {
    try {
      delegate.released(event);
    } catch (RuntimeException e) {
      failed("released", event.key(), e);
    }
  }

  @Override
  public void extended(Extended event) {
    try {
      delegate.extended(event);
    } catch (RuntimeException e) {
      failed("extended", event.key(), e);
    }
  }

  @Override
  public void orphanReleased(OrphanReleased event) {
    try {
      delegate.orphanReleased(event);
    } catch (RuntimeException e) {
      failed("orphanReleased", event.key(), e);
    }
  }
}
