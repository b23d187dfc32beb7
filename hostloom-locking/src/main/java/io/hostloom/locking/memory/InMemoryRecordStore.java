package io.hostloom.locking.memory;

import io.hostloom.locking.spi.support.Claim;
import io.hostloom.locking.spi.support.LeaseRounding;
import io.hostloom.locking.spi.support.VersionedRecord;
import io.hostloom.locking.spi.support.VersionedRecordLockBackend;
import io.hostloom.locking.spi.support.VersionedRecordStore;
import io.hostloom.locking.spi.support.WriteResult;
import io.hostloom.locking.time.LockClock;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A {@link VersionedRecordStore} in this JVM's memory: the reference implementation of the
 * versioned-record strategy, for tests of {@link VersionedRecordLockBackend} and as the smallest
 * example of a store adapter. Versions are a per-store counter (as etcd revisions are), fencing
 * tokens another, expiry the injected clock's monotonic ticker. Every call is one atomic step and
 * completes synchronously; a lost write reports the current record it saw, as an etcd transaction
 * can.
 *
 * <p>For production use in one JVM prefer {@link InMemoryLockBackend} (one step per operation, no
 * retries, release signals).
 */
public final class InMemoryRecordStore implements VersionedRecordStore<Long> {
  private final LockClock clock;
  private final ConcurrentMap<String, Stored> records = new ConcurrentHashMap<>();
  private final AtomicLong versions = new AtomicLong();
  private final AtomicLong tokens = new AtomicLong();

  private record Stored(long version, String owner, String data, long token, long expiresAt) {}

  /** A store whose expiry follows {@code clock} (the testkit's manual clock in tests). */
  public InMemoryRecordStore(LockClock clock) {
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  @Override
  public CompletableFuture<Optional<VersionedRecord<Long>>> read(String key) {
    return CompletableFuture.completedFuture(view(records.get(key)));
  }

  @Override
  public CompletableFuture<WriteResult<Long>> create(String key, Claim claim) {
    WriteResult<?>[] result = new WriteResult<?>[1];
    records.compute(
        key,
        (k, s) -> {
          if (s != null) {
            result[0] = WriteResult.lost(view(s));
            return s;
          }
          Stored next = store(claim);
          result[0] = WriteResult.written(next.token);
          return next;
        });
    return CompletableFuture.completedFuture(cast(result[0]));
  }

  @Override
  public CompletableFuture<WriteResult<Long>> compareAndSet(String key, Long version, Claim claim) {
    WriteResult<?>[] result = new WriteResult<?>[1];
    records.compute(
        key,
        (k, s) -> {
          if (s == null || s.version != version) {
            result[0] = WriteResult.lost(view(s));
            return s;
          }
          Stored next = store(claim);
          result[0] = WriteResult.written(next.token);
          return next;
        });
    return CompletableFuture.completedFuture(cast(result[0]));
  }

  @Override
  public CompletableFuture<WriteResult<Long>> compareAndDelete(String key, Long version) {
    WriteResult<?>[] result = new WriteResult<?>[1];
    records.compute(
        key,
        (k, s) -> {
          if (s == null || s.version != version) {
            result[0] = WriteResult.lost(view(s));
            return s;
          }
          result[0] = WriteResult.deleted();
          return null;
        });
    return CompletableFuture.completedFuture(cast(result[0]));
  }

  /** The number of records kept, live or expired. */
  public int size() {
    return records.size();
  }

  private Stored store(Claim claim) {
    long token = claim.isNewGrant() ? tokens.incrementAndGet() : claim.keptToken();
    long expiresAt = clock.nanoTime() + LeaseRounding.nanos(claim.lease());
    return new Stored(versions.incrementAndGet(), claim.owner(), claim.data(), token, expiresAt);
  }

  private Optional<VersionedRecord<Long>> view(Stored s) {
    if (s == null) {
      return Optional.empty();
    }
    Duration remaining = Duration.ofNanos(s.expiresAt - clock.nanoTime());
    return Optional.of(new VersionedRecord<>(s.version, s.owner, s.data, s.token, remaining));
  }

  @SuppressWarnings("unchecked") // every result built here is a WriteResult<Long>
  private static WriteResult<Long> cast(WriteResult<?> r) {
    return (WriteResult<Long>) r;
  }
}
