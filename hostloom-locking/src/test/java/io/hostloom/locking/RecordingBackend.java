package io.hostloom.locking;

import io.hostloom.locking.spi.AcquireOutcome;
import io.hostloom.locking.spi.ExtendOutcome;
import io.hostloom.locking.spi.LeaseRecord;
import io.hostloom.locking.spi.LockBackend;
import io.hostloom.locking.spi.ReleaseOutcome;
import io.hostloom.locking.spi.ReplaceOutcome;
import io.hostloom.locking.time.LockClock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/** Records each call (operation, key, owner, lease, time on the clock) before delegating. */
final class RecordingBackend implements LockBackend {
  record Call(String op, String key, String owner, Duration lease, Duration at) {}

  private final LockBackend delegate;
  private final LockClock clock;
  private final long origin;
  private final List<Call> calls = new ArrayList<>();
  final List<CompletableFuture<?>> acquireFutures = new ArrayList<>();

  RecordingBackend(LockBackend delegate, LockClock clock) {
    this.delegate = delegate;
    this.clock = clock;
    this.origin = clock.nanoTime();
  }

  synchronized List<Call> calls() {
    return List.copyOf(calls);
  }

  synchronized List<Call> calls(String op) {
    return calls.stream().filter(c -> c.op.equals(op)).toList();
  }

  /** Times (from the clock's origin) of the calls of {@code op}. */
  synchronized List<Duration> times(String op) {
    return calls(op).stream().map(Call::at).toList();
  }

  private synchronized void record(String op, String key, String owner, Duration lease) {
    calls.add(new Call(op, key, owner, lease, Duration.ofNanos(clock.nanoTime() - origin)));
  }

  @Override
  public CompletableFuture<AcquireOutcome> acquire(
      String key, String owner, String data, Duration lease) {
    record("acquire", key, owner, lease);
    CompletableFuture<AcquireOutcome> f = delegate.acquire(key, owner, data, lease);
    synchronized (this) {
      acquireFutures.add(f);
    }
    return f;
  }

  @Override
  public CompletableFuture<ExtendOutcome> extend(String key, String owner, Duration lease) {
    record("extend", key, owner, lease);
    return delegate.extend(key, owner, lease);
  }

  @Override
  public CompletableFuture<ReleaseOutcome> release(String key, String owner) {
    record("release", key, owner, null);
    return delegate.release(key, owner);
  }

  @Override
  public CompletableFuture<ReplaceOutcome> replace(
      String key, String expectedOwner, String newOwner, String newData, Duration lease) {
    record("replace", key, expectedOwner, lease);
    return delegate.replace(key, expectedOwner, newOwner, newData, lease);
  }

  @Override
  public CompletableFuture<Optional<LeaseRecord>> read(String key) {
    record("read", key, null, null);
    return delegate.read(key);
  }

  @Override
  public String name() {
    return delegate.name();
  }
}
