package io.hostloom.locking;

import java.util.List;
import java.util.function.Consumer;

/**
 * {@link LockEventListener#composite}: calls every listener in order, each isolated from the
 * others' failures; keeps one context per listener in an array.
 */
final class CompositeLockEventListener implements LockEventListener {
  private final LockEventListener[] listeners;

  CompositeLockEventListener(List<LockEventListener> listeners) {
    this.listeners = listeners.toArray(new LockEventListener[0]);
  }

  /** The same listeners, each wrapped by {@code wrap} (the lock isolates each one). */
  CompositeLockEventListener map(java.util.function.UnaryOperator<LockEventListener> wrap) {
    LockEventListener[] out = new LockEventListener[listeners.length];
    for (int i = 0; i < out.length; i++) {
      out[i] = wrap.apply(listeners[i]);
    }
    return new CompositeLockEventListener(List.of(out));
  }

  private void each(Consumer<LockEventListener> call) {
    RuntimeException first = null;
    for (LockEventListener l : listeners) {
      try {
        call.accept(l);
      } catch (RuntimeException e) {
        if (first == null) {
          first = e;
        } else {
          first.addSuppressed(e);
        }
      }
    }
    if (first != null) {
      throw first;
    }
  }

  private static Object contextAt(Object contexts, int i) {
    return contexts instanceof Object[] a && i < a.length ? a[i] : null;
  }

  @Override
  public void lockOpened(LockLifecycle event) {
    each(l -> l.lockOpened(event));
  }

  @Override
  public void lockClosed(LockLifecycle event) {
    each(l -> l.lockClosed(event));
  }

  @Override
  public Object executeStarted(ExecuteStarted event) {
    Object[] contexts = new Object[listeners.length];
    int[] i = {0};
    each(l -> contexts[i[0]++] = l.executeStarted(event));
    return contexts;
  }

  @Override
  public void executeFinished(ExecuteFinished e) {
    int[] i = {0};
    each(
        l ->
            l.executeFinished(
                new ExecuteFinished(
                    contextAt(e.context(), i[0]++),
                    e.namespace(),
                    e.key(),
                    e.holdNanos(),
                    e.failure())));
  }

  @Override
  public Object acquireStarted(AcquireStarted e) {
    Object[] contexts = new Object[listeners.length];
    int[] i = {0};
    each(
        l -> {
          int at = i[0]++;
          contexts[at] =
              l.acquireStarted(
                  new AcquireStarted(e.namespace(), e.key(), contextAt(e.parent(), at)));
        });
    return contexts;
  }

  @Override
  public void acquireFinished(AcquireFinished e) {
    int[] i = {0};
    each(
        l ->
            l.acquireFinished(
                new AcquireFinished(
                    contextAt(e.context(), i[0]++),
                    e.namespace(),
                    e.key(),
                    e.result(),
                    e.waitedNanos(),
                    e.attempts(),
                    e.failure())));
  }

  @Override
  public void leaseLost(LeaseLost event) {
    each(l -> l.leaseLost(event));
  }

  @Override
  public void released(Released event) {
    each(l -> l.released(event));
  }

  @Override
  public void extended(Extended event) {
    each(l -> l.extended(event));
  }

  @Override
  public void orphanReleased(OrphanReleased event) {
    each(l -> l.orphanReleased(event));
  }
}
