package io.hostloom.locking.spi.support;

/**
 * Whether the calling thread will block on the future of the backend call it is about to make, and
 * for how long at most: the kernel's blocking acquire forms and {@code LockHandle.close()}, and the
 * WOPI provider, mark their backend calls with it. A backend whose client blocks anyway (JDBC) may
 * then run the call on the caller's thread instead of handing it to a worker and a deadline timer:
 * the caller would only sleep until the worker is done. The SPI contract is unchanged: the call
 * still returns a future (completed), never throws, and ends within the backend's command timeout,
 * which the backend must bound without a second thread (JDBC: the statement's query timeout and the
 * connection's network timeout). A backend that ignores the mark loses nothing.
 *
 * <p>The mark is per thread and only covers calls made directly by the marked code: callbacks on
 * other threads, timers and the async forms never see it. A caller's wait that {@code maxWait}
 * bounds is marked with what is left of it, so a backend runs a call there only when its own bound
 * fits in it ({@link #allows}), and the caller's {@code maxWait} keeps ending the wait on time.
 */
public final class CallerWaits {
  /** A wait with no bound of its own (the backend's command timeout bounds it). */
  public static final long UNBOUNDED = Long.MAX_VALUE;

  /** The wait's end on {@link System#nanoTime()}; read and written by its own thread only. */
  private static final class Mark {
    boolean waiting;
    boolean bounded;
    long endNanos;
  }

  private static final ThreadLocal<Mark> MARK = ThreadLocal.withInitial(Mark::new);

  private CallerWaits() {}

  /**
   * Marks the calling thread as waiting for up to {@code waitNanos} ({@link #UNBOUNDED}: until the
   * call ends) for the backend calls it makes until {@link #end}. Nests: pass the returned state to
   * {@link #end} in a {@code finally}.
   *
   * @return the previous state, for {@link #end}
   */
  public static long begin(long waitNanos) {
    Mark m = MARK.get();
    long previous =
        m.waiting ? (m.bounded ? Math.max(0, m.endNanos - System.nanoTime()) : UNBOUNDED) : -1;
    m.waiting = true;
    m.bounded = waitNanos != UNBOUNDED;
    m.endNanos = m.bounded ? System.nanoTime() + Math.max(0, waitNanos) : 0;
    return previous;
  }

  /** Restores the state {@link #begin} returned. */
  public static void end(long previous) {
    Mark m = MARK.get();
    if (previous < 0) {
      m.waiting = false;
      m.bounded = false;
    } else {
      m.waiting = true;
      m.bounded = previous != UNBOUNDED;
      m.endNanos = m.bounded ? System.nanoTime() + previous : 0;
    }
  }

  /**
   * True when the calling thread is marked as waiting, is not interrupted (an interrupt must end
   * its wait, which a call on its own thread could not), and its wait lasts at least {@code
   * callNanos} more: a call bounded by {@code callNanos} may then run on this thread.
   */
  public static boolean allows(long callNanos) {
    Mark m = MARK.get();
    if (!m.waiting || Thread.currentThread().isInterrupted()) {
      return false;
    }
    return !m.bounded || m.endNanos - System.nanoTime() >= callNanos;
  }
}
