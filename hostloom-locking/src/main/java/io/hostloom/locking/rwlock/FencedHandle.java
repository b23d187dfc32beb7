package io.hostloom.locking.rwlock;

import io.hostloom.locking.LockHandle;
import io.hostloom.locking.LossReason;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/** A kernel lease (write key or reader slot) shown under the lock's name with its rw token. */
final class FencedHandle implements ReadWriteHandle {
  private final LockHandle lease;
  private final String name;
  private final Mode mode;
  private final long token;
  private final AtomicInteger held;
  private final AtomicBoolean counted = new AtomicBoolean();

  /** Counts itself in {@code held} until it is closed or lost. */
  FencedHandle(LockHandle lease, String name, Mode mode, long token, AtomicInteger held) {
    this.lease = lease;
    this.name = name;
    this.mode = mode;
    this.token = token;
    this.held = held;
    held.incrementAndGet();
    var unused = lease.lost().thenRun(this::countDown);
  }

  private void countDown() {
    if (counted.compareAndSet(false, true)) {
      held.decrementAndGet();
    }
  }

  @Override
  public Mode mode() {
    return mode;
  }

  @Override
  public String key() {
    return name;
  }

  @Override
  public long fencingToken() {
    return token;
  }

  @Override
  public boolean isHeld() {
    return lease.isHeld();
  }

  @Override
  public Instant leaseEnd() {
    return lease.leaseEnd();
  }

  @Override
  public CompletableFuture<LossReason> lost() {
    return lease.lost();
  }

  @Override
  public boolean isCoordinated() {
    return true;
  }

  @Override
  public boolean extend(Duration newLease) {
    return lease.extend(newLease);
  }

  @Override
  public CompletableFuture<Boolean> extendAsync(Duration newLease) {
    return lease.extendAsync(newLease);
  }

  @Override
  public void holdAtLeast(Duration minimumHold) {
    lease.holdAtLeast(minimumHold);
  }

  @Override
  public void close() {
    countDown();
    lease.close();
  }

  @Override
  public CompletableFuture<Void> closeAsync() {
    countDown();
    return lease.closeAsync();
  }

  @Override
  public String toString() {
    return mode + " " + name + " (token " + token + ")";
  }
}
