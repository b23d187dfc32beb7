package io.hostloom.locking;

import io.hostloom.locking.spi.AcquireOutcome;
import io.hostloom.locking.spi.LeaseRecord;
import io.hostloom.locking.spi.LockBackend;
import io.hostloom.locking.spi.ReplaceOutcome;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/** A backend that forwards everything; tests override single operations. */
class DelegatingBackend implements LockBackend {
  final LockBackend inner;

  DelegatingBackend(LockBackend inner) {
    this.inner = inner;
  }

  @Override
  public CompletableFuture<AcquireOutcome> acquire(
      String key, String owner, String data, Duration lease) {
    return inner.acquire(key, owner, data, lease);
  }

  @Override
  public CompletableFuture<Boolean> extend(String key, String owner, Duration lease) {
    return inner.extend(key, owner, lease);
  }

  @Override
  public CompletableFuture<Boolean> release(String key, String owner) {
    return inner.release(key, owner);
  }

  @Override
  public CompletableFuture<ReplaceOutcome> replace(
      String key, String expectedOwner, String newOwner, String newData, Duration lease) {
    return inner.replace(key, expectedOwner, newOwner, newData, lease);
  }

  @Override
  public CompletableFuture<Optional<LeaseRecord>> read(String key) {
    return inner.read(key);
  }

  @Override
  public String name() {
    return inner.name();
  }
}
