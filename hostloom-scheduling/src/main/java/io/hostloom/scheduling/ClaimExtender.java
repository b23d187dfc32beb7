package io.hostloom.scheduling;

import io.hostloom.locking.LockHandle;
import io.hostloom.locking.time.LockClock;
import java.time.Duration;
import org.slf4j.Logger;

/**
 * Extends a claim while its job runs: at half of each granted lease, never past {@code maxHold}
 * after the claim request (the last extension is shortened to end exactly there). An extension that
 * failed without losing the claim is tried again at half the time left, never sooner than a
 * twentieth of the lease. The kernel's own heartbeats are not used because their cap is the lock's
 * namespace-wide max hold, and a schedule has its own.
 */
final class ClaimExtender {
  private final String schedule;
  private final LockHandle handle;
  private final LockClock clock;
  private final Duration lease;
  private final long holdEndNanos;
  private final Logger log;
  private LockClock.Timer timer;
  private boolean stopped;

  private ClaimExtender(
      String schedule,
      LockHandle handle,
      LockClock clock,
      Duration lease,
      long holdEndNanos,
      Logger log) {
    this.schedule = schedule;
    this.handle = handle;
    this.clock = clock;
    this.lease = lease;
    this.holdEndNanos = holdEndNanos;
    this.log = log;
  }

  /** Starts extending; {@code requestNanos} is when the claim was requested. */
  static ClaimExtender start(
      String schedule,
      LockHandle handle,
      LockClock clock,
      Duration lease,
      Duration maxHold,
      long requestNanos,
      Logger log) {
    ClaimExtender e =
        new ClaimExtender(schedule, handle, clock, lease, requestNanos + maxHold.toNanos(), log);
    long sinceRequest = clock.nanoTime() - requestNanos;
    e.arm(Duration.ofNanos(Math.max(0, lease.toNanos() / 2 - sinceRequest)));
    return e;
  }

  synchronized void stop() {
    stopped = true;
    if (timer != null) {
      timer.cancel();
    }
  }

  private synchronized void arm(Duration delay) {
    if (!stopped) {
      timer = clock.schedule(delay, this::beat);
    }
  }

  private void beat() {
    synchronized (this) {
      if (stopped) {
        return;
      }
    }
    long left = holdEndNanos - clock.nanoTime();
    if (left <= 0 || !handle.isHeld()) {
      return;
    }
    boolean last = left <= lease.toNanos();
    Duration ask = last ? Duration.ofNanos(left) : lease;
    handle
        .extendAsync(ask)
        .whenComplete(
            (ok, failure) -> {
              if (!handle.isHeld()) {
                return; // lost: the guard reports it
              }
              if (Boolean.TRUE.equals(ok)) {
                if (last) {
                  log.info(
                      "ScheduleMaxHoldReached [3407] schedule '{}': claim extended for the last"
                          + " time, it ends at max hold",
                      schedule);
                } else {
                  arm(ask.dividedBy(2));
                }
                return;
              }
              long timeLeft = handle.leaseEnd().toEpochMilli() - clock.instant().toEpochMilli();
              arm(Duration.ofMillis(Math.max(lease.toMillis() / 20, timeLeft / 2)));
            });
  }
}
