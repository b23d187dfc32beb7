package io.hostloom.locking;

import java.util.List;

/**
 * What a lock reports for metrics and traces; the {@code hostloom-micrometer} module turns it into
 * the {@code hostloom.lock.*} meters and the {@code lock.acquire}/{@code lock.execute}
 * observations. Every method has a no-op default and takes one small event record, so a field added
 * to an event later breaks no listener. {@link #composite} feeds several listeners.
 *
 * <p><b>Threading.</b> Callbacks run on the thread where the event happened: the caller, a
 * backend's I/O thread or the clock's timer thread. They must be quick and must not block.
 *
 * <p><b>Failures.</b> A callback that throws is logged and ignored: it never stops an acquisition,
 * a release or the loss accounting.
 *
 * <p><b>Privacy.</b> Owner tokens never reach a listener. Keys do: treat them as high-cardinality
 * (never a metric tag).
 *
 * <p><b>Active count.</b> {@link #acquireFinished} with {@link AcquireResult#ACQUIRED} starts an
 * active lease; it ends exactly once, either with {@link #leaseLost} or with {@link #released}
 * whose {@code wasActive} is {@code true}.
 */
public interface LockEventListener {
  /** The listener that does nothing; the default. */
  LockEventListener NO_OP = new LockEventListener() {};

  /**
   * One listener that calls each of {@code listeners} in order. A listener that throws does not
   * keep the later ones from being called; the first failure is then rethrown (the lock logs it).
   * Contexts returned by {@link #executeStarted} and {@link #acquireStarted} are kept per listener,
   * so each sees its own.
   */
  static LockEventListener composite(List<? extends LockEventListener> listeners) {
    List<LockEventListener> l = List.copyOf(listeners);
    return l.isEmpty() ? NO_OP : l.size() == 1 ? l.get(0) : new CompositeLockEventListener(l);
  }

  /** {@link #composite(List)} of {@code listeners}. */
  static LockEventListener composite(LockEventListener... listeners) {
    return composite(List.of(listeners));
  }

  /** How an acquisition ended. */
  enum AcquireResult {
    ACQUIRED,
    NOT_ACQUIRED,
    /** The backend failed or granted too late: {@link LockBackendUnavailableException}. */
    UNAVAILABLE,
    /** The caller stopped waiting (interrupt, cancelled future) or the lock was closed. */
    ABANDONED
  }

  /** How an extension ended. */
  enum ExtendResult {
    EXTENDED,
    /** The backend said "not the owner"; the handle is lost. */
    REFUSED,
    /** Granted after the requested lease was spent; the handle is lost. */
    TOO_LATE,
    /** The backend call failed; the lease end is unchanged. */
    FAILED
  }

  /** How the release of an abandoned or uncertain acquisition ended. */
  enum OrphanResult {
    RELEASED,
    ABSENT,
    FAILED
  }

  /** A lock was created or closed; {@code enabled == false} is single-instance mode. */
  record LockLifecycle(String namespace, boolean enabled) {}

  /** An {@code executeWithLock} starts; {@code coordinated} is false in single-instance mode. */
  record ExecuteStarted(String namespace, String key, boolean coordinated) {}

  /**
   * An {@code executeWithLock} ended, after the release.
   *
   * @param context what {@link #executeStarted} returned
   * @param holdNanos time from the acquisition request to the release, or {@code -1} when nothing
   *     was acquired or the lock is disabled
   * @param failure what the call threw, or null
   */
  record ExecuteFinished(
      Object context, String namespace, String key, long holdNanos, Throwable failure) {}

  /**
   * An acquisition starts (after argument, reentrancy and closed checks, which report nothing).
   *
   * @param parent the context of the enclosing {@code executeWithLock}, or null
   */
  record AcquireStarted(String namespace, String key, Object parent) {}

  /**
   * An acquisition ended.
   *
   * @param context what {@link #acquireStarted} returned
   * @param waitedNanos time from the call to the end, on the lock's clock
   * @param attempts backend calls sent
   * @param failure the exception for {@code UNAVAILABLE}/{@code ABANDONED}, else null
   */
  record AcquireFinished(
      Object context,
      String namespace,
      String key,
      AcquireResult result,
      long waitedNanos,
      int attempts,
      Throwable failure) {}

  /** A held lease was lost. */
  record LeaseLost(String namespace, String key, LossReason reason) {}

  /**
   * A handle was closed and its release answered (or failed).
   *
   * @param holdNanos time from the acquisition request to the close
   * @param wasActive whether this ends the active lease (false when it was lost before)
   */
  record Released(String namespace, String key, long holdNanos, boolean wasActive) {}

  /** An extension ended; {@code automatic} for heartbeats. */
  record Extended(String namespace, String key, ExtendResult result, boolean automatic) {}

  /** An orphan release (abandoned or uncertain acquisition) ended. */
  record OrphanReleased(String namespace, String key, OrphanResult result) {}

  /** A lock was created. */
  default void lockOpened(LockLifecycle event) {}

  /** A lock was closed. */
  default void lockClosed(LockLifecycle event) {}

  /**
   * An {@code executeWithLock} starts. The returned context (may be null) is passed to the
   * acquisition inside it ({@link AcquireStarted#parent()}) and to {@link #executeFinished}.
   */
  default Object executeStarted(ExecuteStarted event) {
    return null;
  }

  /** An {@code executeWithLock} ended, after the release. */
  default void executeFinished(ExecuteFinished event) {}

  /**
   * An acquisition starts.
   *
   * @return a context for {@link AcquireFinished#context()}, may be null
   */
  default Object acquireStarted(AcquireStarted event) {
    return null;
  }

  /** An acquisition ended. */
  default void acquireFinished(AcquireFinished event) {}

  /** A held lease was lost; ends the active lease. Called at most once per handle. */
  default void leaseLost(LeaseLost event) {}

  /** A handle was closed and its release answered (or failed). */
  default void released(Released event) {}

  /** An extension ended. */
  default void extended(Extended event) {}

  /** An orphan release ended. */
  default void orphanReleased(OrphanReleased event) {}
}
