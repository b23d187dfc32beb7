package io.hostloom.locking.time;

import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.ScheduledExecutorService;

/**
 * The kernel's only source of time: a monotonic ticker for every deadline, a wall clock for
 * reporting only, and a scheduler for timers. Injected so tests move time explicitly (the testkit's
 * {@code ManualLockClock}) instead of sleeping.
 *
 * <p>Deadlines (lease ends, retry delays, {@code maxWait}) are always computed from {@link
 * #nanoTime()}, so a wall-clock step never shortens or lengthens a lease.
 */
public interface LockClock {

  /** Monotonic nanoseconds, as {@link System#nanoTime()}: only differences are meaningful. */
  long nanoTime();

  /** Wall-clock time, for reporting ({@code leaseEnd}) only. */
  Instant instant();

  /**
   * Runs {@code task} once, {@code delay} from now (immediately-due tasks still run asynchronously,
   * never inside this call). Tasks must be short and must not block: they run on the clock's timer
   * thread.
   *
   * @return a handle whose {@link Timer#cancel()} prevents a task that has not started
   */
  Timer schedule(Duration delay, Runnable task);

  /**
   * {@link #schedule(Duration, Runnable)} with the delay in nanoseconds; the kernel arms one timer
   * per handle and attempt with it, and {@link #system()} serves it without a {@code Duration}.
   */
  default Timer scheduleNanos(long delayNanos, Runnable task) {
    return schedule(Duration.ofNanos(delayNanos), task);
  }

  /** A scheduled task. */
  interface Timer {
    /** Prevents the task from running if it has not started; idempotent. */
    void cancel();
  }

  /** The system clock with one shared daemon timer thread. */
  static LockClock system() {
    return SystemLockClock.INSTANCE;
  }

  /**
   * The system clock with {@code timers} running the scheduled tasks (the caller owns and shuts
   * down the executor).
   */
  static LockClock system(ScheduledExecutorService timers) {
    return new SystemLockClock(timers);
  }
}
