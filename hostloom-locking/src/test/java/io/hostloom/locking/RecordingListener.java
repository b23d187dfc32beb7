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
  public void lockOpened(LockLifecycle e) {
    add("opened:" + e.namespace() + ":" + e.enabled());
  }

  @Override
  public void lockClosed(LockLifecycle e) {
    add("closed:" + e.namespace());
  }

  @Override
  public Object executeStarted(ExecuteStarted e) {
    add("execute-start:" + e.key() + ":" + e.coordinated());
    return "exec-ctx";
  }

  @Override
  public void executeFinished(ExecuteFinished e) {
    add(
        "execute-end:"
            + e.key()
            + ":"
            + e.context()
            + ":"
            + (e.failure() == null ? "ok" : "failed"));
  }

  @Override
  public Object acquireStarted(AcquireStarted e) {
    add("acquire-start:" + e.key() + ":" + e.parent());
    return "acq-ctx";
  }

  @Override
  public void acquireFinished(AcquireFinished e) {
    synchronized (this) {
      this.waitedNanos.add(e.waitedNanos());
    }
    add("acquire:" + e.result() + ":" + e.attempts());
    if (e.result() == AcquireResult.ACQUIRED) {
      add("active+1");
    }
  }

  @Override
  public void leaseLost(LeaseLost e) {
    add("lost:" + e.reason());
    add("active-1");
  }

  @Override
  public void released(Released e) {
    synchronized (this) {
      this.holdNanos.add(e.holdNanos());
    }
    add("released:" + e.wasActive());
    if (e.wasActive()) {
      add("active-1");
    }
  }

  @Override
  public void extended(Extended e) {
    add("extend:" + e.result() + (e.automatic() ? ":auto" : ":manual"));
  }

  @Override
  public void orphanReleased(OrphanReleased e) {
    add("orphan:" + e.result());
  }
}
