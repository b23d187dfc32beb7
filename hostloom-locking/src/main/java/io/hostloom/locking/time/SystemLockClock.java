package io.hostloom.locking.time;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * {@link LockClock#system()}: {@code System.nanoTime()} and one daemon timer thread; {@link
 * LockClock#system(ScheduledExecutorService)}: the same time with a caller's executor as timers.
 */
final class SystemLockClock implements LockClock {
  static final SystemLockClock INSTANCE = new SystemLockClock(daemonTimer());

  private final ScheduledExecutorService timer;

  SystemLockClock(ScheduledExecutorService timer) {
    this.timer = Objects.requireNonNull(timer, "timer");
  }

  private static ScheduledThreadPoolExecutor daemonTimer() {
    ScheduledThreadPoolExecutor timer =
        new ScheduledThreadPoolExecutor(
            1,
            r -> {
              Thread t = new Thread(r, "hostloom-lock-timer");
              t.setDaemon(true);
              return t;
            });
    // cancelled lease timers are the common case; don't let them pile up in the queue
    timer.setRemoveOnCancelPolicy(true);
    return timer;
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
