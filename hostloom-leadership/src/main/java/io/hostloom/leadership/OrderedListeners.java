package io.hostloom.leadership;

import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;

/**
 * Delivers one elector's events in the order they were posted and never concurrently: posts are
 * queued (under the elector's lock, so the queue order is the order of the changes) and drained by
 * one thread at a time, outside that lock. A failing listener is logged and skipped.
 */
final class OrderedListeners {
  private final String role;
  private final Logger log;
  private final LeadershipListener metrics;
  private final List<LeadershipListener> listeners = new CopyOnWriteArrayList<>();
  private final Queue<Runnable> queue = new ConcurrentLinkedQueue<>();
  private final AtomicBoolean draining = new AtomicBoolean();

  OrderedListeners(String role, Logger log, LeadershipListener metrics) {
    this.role = role;
    this.log = log;
    this.metrics = metrics;
  }

  void add(LeadershipListener listener) {
    listeners.add(listener);
  }

  void remove(LeadershipListener listener) {
    listeners.remove(listener);
  }

  void postChange(LeadershipChange change) {
    queue.add(
        () -> {
          safely("onChange", () -> metrics.onChange(change));
          for (LeadershipListener l : listeners) {
            safely("onChange", () -> l.onChange(change));
          }
        });
  }

  void postRenewal(LeadershipRenewal renewal) {
    queue.add(() -> safely("onRenewal", () -> metrics.onRenewal(renewal)));
  }

  /** Runs what is queued unless another thread is already doing so (it then runs ours too). */
  void drain() {
    while (!queue.isEmpty() && draining.compareAndSet(false, true)) {
      try {
        Runnable r;
        while ((r = queue.poll()) != null) {
          r.run();
        }
      } finally {
        draining.set(false);
      }
    }
  }

  private void safely(String what, Runnable call) {
    try {
      call.run();
    } catch (RuntimeException e) {
      log.warn(
          "LeaderListenerFailed [3207]: listener of role '{}' failed in {}; ignored",
          role,
          what,
          e);
    }
  }
}
