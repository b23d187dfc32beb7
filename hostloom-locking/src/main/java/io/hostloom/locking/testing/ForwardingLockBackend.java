package io.hostloom.locking.testing;

import io.hostloom.locking.spi.AcquireOutcome;
import io.hostloom.locking.spi.ExtendOutcome;
import io.hostloom.locking.spi.LeaseRecord;
import io.hostloom.locking.spi.LockBackend;
import io.hostloom.locking.spi.ReleaseOutcome;
import io.hostloom.locking.spi.ReplaceOutcome;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * A {@link LockBackend} that forwards every operation to {@link #delegate}; tests extend it and
 * override the one operation they want to change (a planted defect, a slow reply, an extra
 * capability such as a health probe).
 */
public class ForwardingLockBackend implements LockBackend {
  protected final LockBackend delegate;

  public ForwardingLockBackend(LockBackend delegate) {
    this.delegate = delegate;
  }

  @Override
  public CompletableFuture<AcquireOutcome> acquire(
      String key, String owner, String data, Duration lease) {
    return delegate.acquire(key, owner, data, lease);
  }

  @Override
  public CompletableFuture<ExtendOutcome> extend(String key, String owner, Duration lease) {
    return delegate.extend(key, owner, lease);
  }

  @Override
  public CompletableFuture<ReleaseOutcome> release(String key, String owner) {
    return delegate.release(key, owner);
  }

  @Override
  public CompletableFuture<ReplaceOutcome> replace(
      String key, String expectedOwner, String newOwner, String newData, Duration lease) {
    return delegate.replace(key, expectedOwner, newOwner, newData, lease);
  }

  @Override
  public CompletableFuture<Optional<LeaseRecord>> read(String key) {
    return delegate.read(key);
  }

  @Override
  public String name() {
    return delegate == null ? getClass().getSimpleName() : delegate.name();
  }
}
