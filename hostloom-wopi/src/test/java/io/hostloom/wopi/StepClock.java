package io.hostloom.wopi;

import io.hostloom.locking.time.LockClock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A test-local clock that moves only when told to (this module cannot use the testkit's manual
 * clock: the testkit depends on it). No timers: nothing here schedules.
 */
final class StepClock implements LockClock {
  static final Instant EPOCH = Instant.parse("2026-01-01T00:00:00Z");
  private final AtomicLong nanos = new AtomicLong();

  @Override
  public long nanoTime() {
    return nanos.get();
  }

  @Override
  public Instant instant() {
    return EPOCH.plusNanos(nanos.get());
  }

  @Override
  public Timer schedule(Duration delay, Runnable task) {
    throw new UnsupportedOperationException("no timers in WOPI lock tests");
  }

  void advance(Duration d) {
    nanos.addAndGet(d.toNanos());
  }
}
