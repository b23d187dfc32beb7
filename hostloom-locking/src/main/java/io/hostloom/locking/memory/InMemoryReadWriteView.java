package io.hostloom.locking.memory;

import io.hostloom.locking.spi.AcquireOutcome;
import io.hostloom.locking.spi.ExtendOutcome;
import io.hostloom.locking.spi.LeaseRecord;
import io.hostloom.locking.spi.ReleaseOutcome;
import io.hostloom.locking.spi.support.ReadWriteEntries;
import io.hostloom.locking.spi.support.ViewStep;
import java.util.Optional;

/** The read or the write view of {@link io.hostloom.locking.spi.ReadWriteLeases}. */
final class InMemoryReadWriteView extends InMemoryViews.View<ReadWriteEntries> {
  private final int maxReaders;
  private final boolean write;

  private InMemoryReadWriteView(
      InMemoryViews<ReadWriteEntries> states, int maxReaders, boolean write) {
    super(states, write ? "write view" : "read view");
    this.maxReaders = maxReaders;
    this.write = write;
  }

  static InMemoryReadWriteView read(InMemoryViews<ReadWriteEntries> states, int maxReaders) {
    return new InMemoryReadWriteView(states, maxReaders, false);
  }

  static InMemoryReadWriteView write(InMemoryViews<ReadWriteEntries> states) {
    return new InMemoryReadWriteView(states, 1, true);
  }

  @Override
  ViewStep<ReadWriteEntries, AcquireOutcome> acquire(
      ReadWriteEntries s, String owner, String data, long now, long leaseNanos, long floor) {
    return write
        ? s.acquireWrite(owner, data, now, leaseNanos, floor)
        : s.acquireRead(maxReaders, owner, data, now, leaseNanos, floor);
  }

  @Override
  ViewStep<ReadWriteEntries, ExtendOutcome> extend(
      ReadWriteEntries s, String owner, long now, long leaseNanos) {
    return write ? s.extendWrite(owner, now, leaseNanos) : s.extendRead(owner, now, leaseNanos);
  }

  @Override
  ViewStep<ReadWriteEntries, ReleaseOutcome> release(ReadWriteEntries s, String owner, long now) {
    return write ? s.releaseWrite(owner, now) : s.releaseRead(owner, now);
  }

  @Override
  Optional<LeaseRecord> read(ReadWriteEntries s, long now) {
    return write ? s.readWriter(now) : s.readReaders(now);
  }
}
