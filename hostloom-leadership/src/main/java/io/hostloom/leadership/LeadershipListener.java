package io.hostloom.leadership;

/**
 * What an elector reports: every leadership change, and for metrics every renewal. Both methods
 * have a no-op default.
 *
 * <p><b>Order.</b> The changes of one elector reach each listener in the order they happened, one
 * at a time, never concurrently (a queue drained by one thread at a time). An {@code ACQUIRED} is
 * always followed by exactly one of {@code LOST}, {@code RESIGNED} or {@code STOPPED} for the same
 * term before the next {@code ACQUIRED}.
 *
 * <p><b>Threading.</b> Callbacks run on the thread that made the change happen (the clock's timer
 * thread, a backend I/O thread, or the caller of {@code resign}/{@code stop}); they must be quick
 * and must not block: a blocking listener delays the lock's timers.
 *
 * <p><b>Failures.</b> A callback that throws is logged (3207) and ignored; it never stops a
 * renewal, a release or the delivery to other listeners.
 */
public interface LeadershipListener {
  /** The listener that does nothing. */
  LeadershipListener NO_OP = new LeadershipListener() {};

  /** Leadership of {@code change.role()} changed for this elector. */
  default void onChange(LeadershipChange change) {}

  /**
   * A renewal ended. Called before the change it may cause ({@link RenewalOutcome#REFUSED} is
   * followed by {@code LOST}).
   */
  default void onRenewal(LeadershipRenewal renewal) {}

  /** The elector was built; lets a metrics listener register per-role meters. */
  default void onRegistered(LeaderElection election) {}
}
