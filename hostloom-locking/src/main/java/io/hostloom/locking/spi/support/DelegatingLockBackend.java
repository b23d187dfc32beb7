package io.hostloom.locking.spi.support;

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
 * A {@link LockBackend} whose five operations ({@code acquire}, {@code extend}, {@code release},
 * {@code replace}, {@code read}) are those of {@link #delegate()}, unchanged: the same arguments
 * are passed on and the delegate's future is returned as is, so its argument checks, outcomes and
 * failures are this backend's.
 *
 * <p>For a backend that keeps its lease logic in another {@code LockBackend} (typically a {@link
 * VersionedRecordLockBackend} over its own store) and adds its own face around it: a name, a health
 * probe, a release signal, its lifecycle. Also the base of the decorators in {@code
 * io.hostloom.locking.testing}. {@link #name()} is not forwarded: a subclass names itself.
 *
 * <p>A subclass may override any operation; thread safety is that of the delegate.
 */
public abstract class DelegatingLockBackend implements LockBackend {
  /** For subclasses. */
  protected DelegatingLockBackend() {}

  /**
   * The backend the operations go to. Called on every operation; must return the same backend each
   * time and never {@code null} once an operation is called.
   */
  protected abstract LockBackend delegate();

  @Override
  public CompletableFuture<AcquireOutcome> acquire(
      String key, String owner, String data, Duration lease) {
    return delegate().acquire(key, owner, data, lease);
  }

  @Override
  public CompletableFuture<ExtendOutcome> extend(String key, String owner, Duration lease) {
    return delegate().extend(key, owner, lease);
  }

  @Override
  public CompletableFuture<ReleaseOutcome> release(String key, String owner) {
    return delegate().release(key, owner);
  }

  @Override
  public CompletableFuture<ReplaceOutcome> replace(
      String key, String expectedOwner, String newOwner, String newData, Duration lease) {
    return delegate().replace(key, expectedOwner, newOwner, newData, lease);
  }

  @Override
  public CompletableFuture<Optional<LeaseRecord>> read(String key) {
    return delegate().read(key);
  }
}
