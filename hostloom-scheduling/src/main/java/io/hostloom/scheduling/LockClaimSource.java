package io.hostloom.scheduling;

import io.hostloom.locking.DistributedLock;
import io.hostloom.locking.LockHandle;
import io.hostloom.locking.LossReason;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * Claims each occurrence through the lock key {@code schedule:<name>}: the default guard kind. The
 * lock keeps the claim (automatic extension up to the schedule's max hold, the minimum hold on
 * release).
 */
final class LockClaimSource implements ClaimSource {
  private final DistributedLock lock;

  LockClaimSource(DistributedLock lock) {
    this.lock = lock;
  }

  @Override
  public Optional<HeldClaim> claim(ScheduleOptions options, Instant occurrence) {
    return lock.tryAcquire(options.lockKey(), options.lockOptions()).map(LockClaim::new);
  }

  @Override
  public String busyReason() {
    return "claimed by another instance";
  }

  @Override
  public List<String> validate(ScheduleOptions options) {
    return lock.options().map(options::validateFor).orElse(List.of());
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
    public void release() {
      handle.close(); // the lock keeps the lease until the minimum hold
    }
  }
}
