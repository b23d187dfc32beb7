package io.hostloom.leadership;

import io.hostloom.locking.testing.ManualLockClock;
import io.hostloom.locking.time.LockClock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * A manual clock whose timer thread can be stuck (a GC pause, a blocking listener): while stalled,
 * time moves but no timer runs; the timers that fell due run on {@link #resume()}.
 */
final class StallableClock implements LockClock {
  private final ManualLockClock time;
  private final List<Runnable> deferred = new ArrayList<>();
  private boolean stalled;

  StallableClock(ManualLockClock time) {
    this.time = time;
  }

  synchronized void stall() {
    stalled = true;
  }

  void resume() {
    List<Runnable> due;
    synchronized (this) {
      stalled = false;
      due = new ArrayList<>(deferred);
      deferred.clear();
    }
    due.forEach(Runnable::run);
  }

  @Override
  public long nanoTime() {
    return time.nanoTime();
  }

  @Override
  public Instant instant() {
    return time.instant();
  }

  @Override
  public Timer schedule(Duration delay, Runnable task) {
    boolean[] cancelled = {false};
    Runnable guarded =
        () -> {
          synchronized (cancelled) {
            if (cancelled[0]) {
              return;
            }
          }
          task.run();
        };
    Timer inner =
        time.schedule(
            delay,
            () -> {
              synchronized (this) {
                if (stalled) {
                  deferred.add(guarded);
                  return;
                }
              }
              guarded.run();
            });
    return () -> {
      synchronized (cancelled) {
        cancelled[0] = true;
      }
      inner.cancel();
    };
  }
}
