package io.hostloom.locking.time;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * {@link LockClock#system()}: {@code System.nanoTime()} and one daemon timer thread ({@link
 * TimerThread}); {@link LockClock#system(ScheduledExecutorService)}: the same time with a caller's
 * executor as timers.
 */
final class SystemLockClock implements LockClock {
  static final SystemLockClock INSTANCE =
      new SystemLockClock(new TimerThread("hostloom-lock-timer"));

  private final ScheduledExecutorService timer; // null: own
  private final TimerThread own;

  SystemLockClock(ScheduledExecutorService timer) {
    this.timer = Objects.requireNonNull(timer, "timer");
    this.own = null;
  }

  private SystemLockClock(TimerThread own) {
    this.timer = null;
    this.own = own;
  }

  @Override
  public long nanoTime() {
    return System.nanoTime();
  }

  @Override
  public Instant instant() {
    return Instant.now();
  }

  @Override
  public Timer schedule(Duration delay, Runnable task) {
    return scheduleNanos(saturatedNanos(delay), task);
  }

  @Override
  public Timer scheduleNanos(long delayNanos, Runnable task) {
    Objects.requireNonNull(task, "task");
    if (own != null) {
      return own.schedule(delayNanos, task);
    }
    ScheduledFuture<?> f = timer.schedule(task, Math.max(0, delayNanos), TimeUnit.NANOSECONDS);
    return () -> f.cancel(false);
  }

  private static long saturatedNanos(Duration d) {
    try {
      return d.toNanos();
    } catch (ArithmeticException e) {
      return d.isNegative() ? Long.MIN_VALUE : Long.MAX_VALUE;
    }
  }
}
