package io.hostloom.locking.testing;

import io.hostloom.locking.spi.AcquireOutcome;
import io.hostloom.locking.spi.ExtendOutcome;
import io.hostloom.locking.spi.LeaseRecord;
import io.hostloom.locking.spi.LockBackend;
import io.hostloom.locking.spi.ReleaseOutcome;
import io.hostloom.locking.spi.ReplaceOutcome;
import java.time.Duration;
import java.util.EnumMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Wraps a {@link LockBackend} and counts the calls of each operation, so tests can state how many
 * backend operations a higher-level action costs (e.g. one WOPI request). Thread-safe.
 */
public final class CountingLockBackend implements LockBackend {
  /** The five SPI operations. */
  public enum Operation {
    ACQUIRE,
    EXTEND,
    RELEASE,
    REPLACE,
    READ
  }

  private final LockBackend delegate;
  private final Map<Operation, AtomicLong> counts = new EnumMap<>(Operation.class);

  public CountingLockBackend(LockBackend delegate) {
    this.delegate = Objects.requireNonNull(delegate, "delegate");
    for (Operation op : Operation.values()) {
      counts.put(op, new AtomicLong());
    }
  }

  public LockBackend delegate() {
    return delegate;
  }

  /** Calls of {@code op} since creation or the last {@link #reset()}. */
  public long count(Operation op) {
    return counts.get(op).get();
  }

  /** Calls of every operation since creation or the last {@link #reset()}. */
  public long total() {
    long n = 0;
    for (AtomicLong c : counts.values()) {
      n += c.get();
    }
    return n;
  }

  public void reset() {
    counts.values().forEach(c -> c.set(0));
  }

  @Override
  public CompletableFuture<AcquireOutcome> acquire(
      String key, String owner, String data, Duration lease) {
    counts.get(Operation.ACQUIRE).incrementAndGet();
    return delegate.acquire(key, owner, data, lease);
  }

  @Override
  public CompletableFuture<ExtendOutcome> extend(String key, String owner, Duration lease) {
    counts.get(Operation.EXTEND).incrementAndGet();
    return delegate.extend(key, owner, lease);
  }

  @Override
  public CompletableFuture<ReleaseOutcome> release(String key, String owner) {
    counts.get(Operation.RELEASE).incrementAndGet();
    return delegate.release(key, owner);
  }

  @Override
  public CompletableFuture<ReplaceOutcome> replace(
      String key, String expectedOwner, String newOwner, String newData, Duration lease) {
    counts.get(Operation.REPLACE).incrementAndGet();
    return delegate.replace(key, expectedOwner, newOwner, newData, lease);
  }

  @Override
  public CompletableFuture<Optional<LeaseRecord>> read(String key) {
    counts.get(Operation.READ).incrementAndGet();
    return delegate.read(key);
  }

  @Override
  public String name() {
    return delegate.name();
  }
}
