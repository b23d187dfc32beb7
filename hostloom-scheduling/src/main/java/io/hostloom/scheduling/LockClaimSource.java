package io.hostloom.scheduling;

import io.hostloom.locking.DistributedLock;
import io.hostloom.locking.LockHandle;
import io.hostloom.locking.LockingProbe;
import io.hostloom.locking.LossReason;
import io.hostloom.locking.time.LockClock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.slf4j.Logger;

/** Claims each occurrence through the lock key {@code schedule:<name>}: the default guard kind. */
final class LockClaimSource implements ClaimSource {
  private final DistributedLock lock;

  LockClaimSource(DistributedLock lock) {
    this.lock = lock;
  }

  @Override
  public Optional<HeldClaim> claim(ScheduleOptions options) {
    return lock.tryAcquire(options.lockKey(), options.lockOptions()).map(LockClaim::new);
  }

  @Override
  public String busyReason() {
    return "claimed by another instance";
  }

  @Override
  public List<String> validate(ScheduleOptions options) {
    return LockingProbe.options(lock).map(options::validateFor).orElse(List.of());
  }

  private record LockClaim(LockHandle handle) implements HeldClaim {
    @Override
    public long fencingToken() {
      return handle.fencingToken();
    }

    @Override
    public boolean isHeld() {
      return handle.isHeld();
    }

    @Override
    public Instant leaseEnd() {
      return handle.leaseEnd();
    }

    @Override
    public CompletableFuture<LossReason> lost() {
      return handle.lost();
    }

    @Override
    public boolean isCoordinated() {
      return handle.isCoordinated();
    }

    @Override
    public Runnable keepAlive(
        String schedule, LockClock clock, ScheduleOptions options, long requested, Logger log) {
      if (!options.autoExtend()) {
        return () -> {};
      }
      ClaimExtender e =
          ClaimExtender.start(
              schedule, handle, clock, options.lease(), options.maxHold(), requested, log);
      return e::stop;
    }

    @Override
    public void release() {
      handle.close();
    }

    @Override
    public void releaseAfterMinimumHold(LockClock clock, ScheduleOptions options, long requested) {
      long holdLeft = requested + options.minimumHold().toNanos() - clock.nanoTime();
      if (holdLeft > 0 && handle.isHeld()) {
        // the lease (>= minimum hold, from the same request) covers the wait; release it at its end
        clock.schedule(Duration.ofNanos(holdLeft), handle::closeAsync);
      } else {
        handle.close();
      }
    }
  }
}
