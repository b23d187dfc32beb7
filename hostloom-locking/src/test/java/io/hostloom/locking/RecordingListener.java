package io.hostloom.locking;

import java.util.ArrayList;
import java.util.List;

/** Records every event as a short string, e.g. {@code acquire:ACQUIRED:2} or {@code active-1}. */
final class RecordingListener implements LockEventListener {
  private final List<String> events = new ArrayList<>();
  final List<Long> holdNanos = new ArrayList<>();
  final List<Long> waitedNanos = new ArrayList<>();

  synchronized List<String> events() {
    return List.copyOf(events);
  }

  synchronized List<String> matching(String prefix) {
    return events.stream().filter(e -> e.startsWith(prefix)).toList();
  }

  synchronized void clear() {
    events.clear();
    holdNanos.clear();
    waitedNanos.clear();
  }

  /** The +1/-1 changes of the active count, in order. */
  synchronized List<Integer> activeChanges() {
    List<Integer> out = new ArrayList<>();
    for (String e : events) {
      if (e.equals("active+1")) {
        out.add(1);
      } else if (e.equals("active-1")) {
        out.add(-1);
      }
    }
    return out;
  }

  private synchronized void add(String e) {
    events.add(e);
  }

  @Override
  public void lockOpened(String namespace, boolean enabled) {
    add("opened:" + namespace + ":" + enabled);
  }

  @Override
  public void lockClosed(String namespace, boolean enabled) {
    add("closed:" + namespace);
  }

  @Override
  public Object executeStarted(String namespace, String key, boolean coordinated) {
    add("execute-start:" + key + ":" + coordinated);
    return "exec-ctx";
  }

  @Override
  public void executeFinished(
      Object context, String namespace, String key, long holdNanos, Throwable failure) {
    add("execute-end:" + key + ":" + context + ":" + (failure == null ? "ok" : "failed"));
  }

  @Override
  public Object acquireStarted(String namespace, String key, Object parent) {
    add("acquire-start:" + key + ":" + parent);
    return "acq-ctx";
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
    synchronized (this) {
      this.waitedNanos.add(waitedNanos);
    }
    add("acquire:" + result + ":" + attempts);
    if (result == AcquireResult.ACQUIRED) {
      add("active+1");
    }
  }

  @Override
  public void leaseLost(String namespace, String key, LossReason reason) {
    add("lost:" + reason);
    add("active-1");
  }

  @Override
  public void released(String namespace, String key, long holdNanos, boolean wasActive) {
    synchronized (this) {
      this.holdNanos.add(holdNanos);
    }
    add("released:" + wasActive);
    if (wasActive) {
      add("active-1");
    }
  }

  @Override
  public void extended(String namespace, String key, ExtendResult result, boolean automatic) {
    add("extend:" + result + (automatic ? ":auto" : ":manual"));
  }

  @Override
  public void orphanReleased(String namespace, String key, OrphanResult result) {
    add("orphan:" + result);
  }
}
