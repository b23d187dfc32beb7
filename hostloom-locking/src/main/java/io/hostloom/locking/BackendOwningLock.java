package io.hostloom.locking;

import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;

/**
 * A kernel lock that owns its backend ({@link DistributedLock.Builder#closeBackendOnClose()}): its
 * {@link #close()} closes the lock first (in-flight acquisitions end, their calls are cancelled),
 * then the backend, once.
 */
final class BackendOwningLock implements DistributedLock {
  private final DistributedLock lock;
  private final AutoCloseable backend;
  private final Logger log;
  private final AtomicBoolean closed = new AtomicBoolean();

  BackendOwningLock(DistributedLock lock, AutoCloseable backend, Logger log) {
    this.lock = lock;
    this.backend = backend;
    this.log = log;
  }

  @Override
  public boolean isCoordinated() {
    return lock.isCoordinated();
  }

  @Override
  public <T, X extends Exception> T executeWithLock(
      String key, LockOptions options, LockedCallable<T, X> action) throws X {
    return lock.executeWithLock(key, options, action);
  }

  @Override
  public LockHandle acquire(String key, LockOptions options) {
    return lock.acquire(key, options);
  }

  @Override
  public Optional<LockHandle> tryAcquire(String key, LockOptions options) {
    return lock.tryAcquire(key, options);
  }

  @Override
  public CompletableFuture<LockHandle> acquireAsync(String key, LockOptions options) {
    return lock.acquireAsync(key, options);
  }

  @Override
  public CompletableFuture<Optional<LockHandle>> tryAcquireAsync(String key, LockOptions options) {
    return lock.tryAcquireAsync(key, options);
  }

  @Override
  public <T> CompletableFuture<T> executeWithLockAsync(
      String key, LockOptions options, LockedAsyncFunction<T> action) {
    return lock.executeWithLockAsync(key, options, action);
  }

  @Override
  public Optional<LockingOptions> options() {
    return lock.options();
  }

  @Override
  public LockDescription describe() {
    return lock.describe();
  }

  @Override
  public void close() {
    lock.close();
    if (closed.compareAndSet(false, true)) {
      try {
        backend.close();
      } catch (Exception e) {
        // close() never throws; a backend that fails to shut down is worth a line, not a crash
        log.warn("closing the lock's backend failed: {}", e.toString());
        if (e instanceof InterruptedException) {
          Thread.currentThread().interrupt();
        }
      }
    }
  }
}
