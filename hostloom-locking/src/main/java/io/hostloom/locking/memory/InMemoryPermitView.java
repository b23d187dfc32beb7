package io.hostloom.locking.memory;

import io.hostloom.locking.spi.AcquireOutcome;
import io.hostloom.locking.spi.ExtendOutcome;
import io.hostloom.locking.spi.LeaseRecord;
import io.hostloom.locking.spi.ReleaseOutcome;
import io.hostloom.locking.spi.support.PermitEntries;
import io.hostloom.locking.spi.support.ViewStep;
import java.util.Optional;

/** The {@link io.hostloom.locking.spi.PermitLeases} view of semaphores of {@code permits}. */
final class InMemoryPermitView extends InMemoryViews.View<PermitEntries> {
  private final int permits;

  InMemoryPermitView(InMemoryViews<PermitEntries> states, int permits) {
    super(states, "permit view");
    this.permits = permits;
  }

  @Override
  ViewStep<PermitEntries, AcquireOutcome> acquire(
      PermitEntries s, String owner, String data, long now, long leaseNanos, long floor) {
    return s.acquire(permits, owner, data, now, leaseNanos, floor);
  }

  @Override
  ViewStep<PermitEntries, ExtendOutcome> extend(
      PermitEntries s, String owner, long now, long leaseNanos) {
    return s.extend(owner, now, leaseNanos);
  }

  @Override
  ViewStep<PermitEntries, ReleaseOutcome> release(PermitEntries s, String owner, long now) {
    return s.release(owner, now);
  }

  @Override
  Optional<LeaseRecord> read(PermitEntries s, long now) {
    return s.read(now);
  }
}
