package io.hostloom.locking.testing;

import io.hostloom.locking.time.LockClock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.PriorityQueue;

/**
 * A {@link LockClock} that moves only when a test says so. Timers run on the thread that calls
 * {@link #advance(Duration)} or {@link #runDueTasks()}, in due order (ties in scheduling order),
 * each with the clock set to its due time, so a test sees exactly the timeline it asked for.
 *
 * <p>Thread-safe: code under test may schedule from any thread while a test advances time. Not
 * final only so that the testkit's deprecated {@code io.hostloom.testkit.ManualLockClock} can
 * extend it; do not subclass it otherwise.
 */
public class ManualLockClock implements LockClock {
  /** The wall-clock instant at nano time zero. */
  public static final Instant DEFAULT_EPOCH = Instant.parse("2026-01-01T00:00:00Z");

  private final Instant epoch;
  private final PriorityQueue<Task> queue = new PriorityQueue<>();
  private long now;
  private long target; // the furthest time any advance has asked for; never behind now
  private long sequence;

  public ManualLockClock() {
    this(DEFAULT_EPOCH);
  }

  public ManualLockClock(Instant epoch) {
    this.epoch = Objects.requireNonNull(epoch, "epoch");
  }

  private static final class Task implements Comparable<Task>, Timer {
    final long due;
    final long seq;
    final Runnable action;
    volatile boolean cancelled;

    Task(long due, long seq, Runnable action) {
      this.due = due;
      this.seq = seq;
      this.action = action;
    }

    @Override
    public int compareTo(Task o) {
      int c = Long.compare(due, o.due);
      return c != 0 ? c : Long.compare(seq, o.seq);
    }

    @Override
    public void cancel() {
      cancelled = true;
    }
  }

  @Override
  public synchronized long nanoTime() {
    return now;
  }

  @Override
  public synchronized Instant instant() {
    return epoch.plusNanos(now);
  }

  /** Time elapsed since the clock was created. */
  public synchronized Duration elapsed() {
    return Duration.ofNanos(now);
  }

  @Override
  public synchronized Timer schedule(Duration delay, Runnable task) {
    Objects.requireNonNull(task, "task");
    long d = Math.max(0, saturatedNanos(delay));
    long due = d > Long.MAX_VALUE - now ? Long.MAX_VALUE : now + d;
    Task t = new Task(due, sequence++, task);
    queue.add(t);
    return t;
  }

  /**
   * Moves time forward by {@code by}, running every timer that falls due on the way (including
   * timers those timers schedule), each at its own due time. Concurrent advances add up (two
   * concurrent {@code advance(10 ms)} move the clock by 20 ms) and time never goes back.
   */
  public void advance(Duration by) {
    if (by.isNegative()) {
      throw new IllegalArgumentException("time never goes back: " + by);
    }
    long goal;
    synchronized (this) {
      target = Math.max(target, now) + by.toNanos();
      goal = target;
    }
    while (true) {
      Task next;
      synchronized (this) {
        next = queue.peek();
        if (next == null || next.due > goal) {
          now = Math.max(now, goal);
          return;
        }
        queue.poll();
        now = Math.max(now, next.due);
      }
      if (!next.cancelled) {
        next.action.run();
      }
    }
  }

  /** Runs the timers already due (delay zero) without moving time. */
  public void runDueTasks() {
    advance(Duration.ZERO);
  }

  /** Timers scheduled and neither run nor cancelled, for "no timers remain" assertions. */
  public synchronized int pendingTimers() {
    int n = 0;
    for (Task t : queue) {
      if (!t.cancelled) {
        n++;
      }
    }
    return n;
  }

  /** Due offsets (from now) of the pending timers, in due order; for debugging tests. */
  public synchronized List<Duration> pendingDelays() {
    List<Task> tasks = new ArrayList<>(queue);
    tasks.sort(null);
    List<Duration> out = new ArrayList<>();
    for (Task t : tasks) {
      if (!t.cancelled) {
        out.add(Duration.ofNanos(t.due - now));
      }
    }
    return out;
  }

  private static long saturatedNanos(Duration d) {
    try {
      return d.toNanos();
    } catch (ArithmeticException e) {
      return d.isNegative() ? Long.MIN_VALUE : Long.MAX_VALUE;
    }
  }
}
