package io.hostloom.redis;

import io.hostloom.locking.spi.AcquireOutcome;
import io.hostloom.locking.spi.ExtendOutcome;
import io.hostloom.locking.spi.LeaseRecord;
import io.hostloom.locking.spi.LockBackend;
import io.hostloom.locking.spi.LockBackendException;
import io.hostloom.locking.spi.ReleaseOutcome;
import io.hostloom.locking.spi.ReplaceOutcome;
import io.lettuce.core.output.NestedMultiOutput;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * One of the two {@link io.hostloom.locking.spi.ReadWriteLeases} views of a {@link
 * RedisLockBackend} (read or write): each operation one {@link ReadWriteScripts} script over the
 * lock key's readers and entries, one round trip, through the backend's connection, timeouts and
 * failure mapping. Releases publish on the key's release channel like the lock's, so the backend's
 * {@code awaitRelease} of the reader-writer key wakes on them. Thread-safe.
 */
final class RedisReadWriteLeases implements LockBackend {
  private static final Wtf8Codec CODEC = Wtf8Codec.INSTANCE;

  private final RedisLockBackend backend;
  private final RedisKeyLayout layout;
  private final boolean write;
  private final String maxReaders;

  RedisReadWriteLeases(RedisLockBackend backend, boolean write, int maxReaders) {
    this.backend = backend;
    this.layout = backend.layout();
    this.write = write;
    this.maxReaders = Integer.toString(maxReaders);
  }

  private String op(String what) {
    return (write ? "rw write " : "rw read ") + what;
  }

  @Override
  public CompletableFuture<AcquireOutcome> acquire(
      String key, String owner, String data, Duration lease) {
    RedisLockBackend.ARGUMENTS.acquire(key, owner, data, lease);
    long leaseMs = RedisLockBackend.leaseMillis(lease);
    String lk = layout.leaseKey(key);
    String ms = Long.toString(leaseMs);
    String ttl = backend.counterTtl(leaseMs);
    String horizon = backend.waitHorizon(key);
    return backend.eval(
        op("acquire"),
        write ? ReadWriteScripts.WRITE_ACQUIRE : ReadWriteScripts.READ_ACQUIRE,
        () -> new NestedMultiOutput<>(CODEC),
        List.of(
            layout.readWriteReadersKeyOf(lk),
            layout.readWriteEntriesKeyOf(lk),
            layout.fenceKeyOf(lk),
            layout.waitersKeyOf(lk)),
        write
            ? List.of(owner, data, ms, ttl, horizon)
            : List.of(owner, data, ms, ttl, horizon, maxReaders),
        (r, replayed) -> RedisLockBackend.acquired(r));
  }

  @Override
  public CompletableFuture<ExtendOutcome> extend(String key, String owner, Duration lease) {
    RedisLockBackend.ARGUMENTS.extend(key, owner, lease);
    long leaseMs = RedisLockBackend.leaseMillis(lease);
    String lk = layout.leaseKey(key);
    List<String> args = List.of(owner, Long.toString(leaseMs), backend.counterTtl(leaseMs));
    return backend.eval(
        op("extend"),
        write ? ReadWriteScripts.WRITE_EXTEND : ReadWriteScripts.READ_EXTEND,
        () -> new NestedMultiOutput<>(CODEC),
        write
            ? List.of(layout.readWriteEntriesKeyOf(lk), layout.fenceKeyOf(lk))
            : List.of(
                layout.readWriteReadersKeyOf(lk),
                layout.readWriteEntriesKeyOf(lk),
                layout.fenceKeyOf(lk)),
        args,
        (r, replayed) -> RedisLockBackend.entryExtended(r, op("extend")));
  }

  @Override
  public CompletableFuture<ReleaseOutcome> release(String key, String owner) {
    RedisLockBackend.ARGUMENTS.release(key, owner);
    String lk = layout.leaseKey(key);
    return backend.eval(
        op("release"),
        write ? ReadWriteScripts.WRITE_RELEASE : ReadWriteScripts.READ_RELEASE,
        () -> new NestedMultiOutput<>(CODEC),
        write
            ? List.of(layout.readWriteEntriesKeyOf(lk), layout.waitersKeyOf(lk))
            : List.of(
                layout.readWriteReadersKeyOf(lk),
                layout.readWriteEntriesKeyOf(lk),
                layout.waitersKeyOf(lk)),
        List.of(owner, backend.channel(key), backend.announceMode()),
        (r, replayed) -> RedisLockBackend.entryReleased(r, replayed, op("release")));
  }

  /** Not part of the views: the lease engine never replaces. */
  @Override
  public CompletableFuture<ReplaceOutcome> replace(
      String key, String expectedOwner, String newOwner, String newData, Duration lease) {
    RedisLockBackend.ARGUMENTS.replace(key, expectedOwner, newOwner, newData, lease);
    return CompletableFuture.failedFuture(
        LockBackendException.other("a Redis reader-writer view does not replace entries", null));
  }

  @Override
  public CompletableFuture<Optional<LeaseRecord>> read(String key) {
    RedisLockBackend.ARGUMENTS.read(key);
    String lk = layout.leaseKey(key);
    return backend.eval(
        op("read"),
        write ? ReadWriteScripts.WRITE_READ : ReadWriteScripts.READ_READ,
        () -> new NestedMultiOutput<>(CODEC),
        write
            ? List.of(layout.readWriteEntriesKeyOf(lk))
            : List.of(layout.readWriteReadersKeyOf(lk), layout.readWriteEntriesKeyOf(lk)),
        List.of(),
        (r, replayed) -> RedisLockBackend.readRecord(r));
  }

  @Override
  public String name() {
    return backend.name();
  }

  @Override
  public String toString() {
    return "RedisReadWriteLeases["
        + layout
        + (write ? ", write" : ", read, readers=" + maxReaders)
        + "]";
  }
}
