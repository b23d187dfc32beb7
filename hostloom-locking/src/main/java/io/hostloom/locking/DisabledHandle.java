package io.hostloom.locking;

import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CompletableFuture;

/**
 * The single-instance placeholder, kept as the seed has it: held forever (also after close), never
 * lost, extends to anything, closes as a no-op. {@link #isCoordinated()} is false so consumers can
 * tell it from a real lease.
 */
final class DisabledHandle implements LockHandle {
  private final String key;

  DisabledHandle(String key) {
    this.key = key;
  }

  @Override
  public String key() {
    return key;
  }

  @Override
  public boolean isHeld() {
    return true;
  }

  @Override
  public Instant leaseEnd() {
    return Instant.MAX;
  }

  @Override
  public CompletableFuture<LossReason> lost() {
    return new CompletableFuture<>(); // never completes
  }

  @Override
  public boolean isCoordinated() {
    return false;
  }

  @Override
  public long fencingToken() {
    return 0;
  }

  @Override
  public void holdAtLeast(Duration minimumHold) {
    LockOptions.checkMinimumHold(minimumHold);
  }

  @Override
  public boolean extend(Duration lease) {
    return true;
  }

  @Override
  public CompletableFuture<Boolean> extendAsync(Duration lease) {
    return CompletableFuture.completedFuture(true);
  }

  @Override
  public void close() {}

  @Override
  public CompletableFuture<Void> closeAsync() {
    return CompletableFuture.completedFuture(null);
  }

  @Override
  public String toString() {
    return "LockHandle[key=" + key + ", placeholder]";
  }
}
