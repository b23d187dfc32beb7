package io.hostloom.locking;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Whether a lock is closed, and the acquisitions still waiting for a reply, which closing ends. An
 * acquisition that completes inline on the caller's thread is never tracked.
 */
final class AcquisitionTracker {
  private final String namespace;
  private final Set<Acquisition<?>> inFlight = ConcurrentHashMap.newKeySet();
  private final AtomicBoolean closed = new AtomicBoolean();

  AcquisitionTracker(String namespace) {
    this.namespace = namespace;
  }

  void track(Acquisition<?> a) {
    inFlight.add(a);
  }

  void untrack(Acquisition<?> a) {
    inFlight.remove(a);
  }

  boolean isClosed() {
    return closed.get();
  }

  void checkOpen() {
    if (closed.get()) {
      throw closedException();
    }
  }

  /** Closes; false when it was closed before. Ends every tracked acquisition. */
  boolean close() {
    if (!closed.compareAndSet(false, true)) {
      return false;
    }
    for (Acquisition<?> a : inFlight) {
      a.closedByLock();
    }
    return true;
  }

  IllegalStateException closedException() {
    return new IllegalStateException("lock for namespace '" + namespace + "' is closed");
  }
}
