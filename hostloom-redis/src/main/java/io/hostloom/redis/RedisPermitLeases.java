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
 * The {@link io.hostloom.locking.spi.PermitLeases} view of a {@link RedisLockBackend} for
 * semaphores of {@code permits} permits: each operation one {@link PermitScripts} script over the
 * semaphore key's holders and entries, one round trip, through the backend's connection, timeouts
 * and failure mapping. Releases publish on the key's release channel like the lock's, so the
 * backend's {@code awaitRelease} of the semaphore key wakes on them. Thread-safe.
 */
final class RedisPermitLeases implements LockBackend {
  private static final Wtf8Codec CODEC = Wtf8Codec.INSTANCE;

  private final RedisLockBackend backend;
  private final RedisKeyLayout layout;
  private final int permits;
  private final String count;

  RedisPermitLeases(RedisLockBackend backend, int permits) {
    this.backend = backend;
    this.layout = backend.layout();
    this.permits = permits;
    this.count = Integer.toString(permits);
  }

  @Override
  public CompletableFuture<AcquireOutcome> acquire(
      String key, String owner, String data, Duration lease) {
    RedisLockBackend.ARGUMENTS.acquire(key, owner, data, lease);
    long leaseMs = RedisLockBackend.leaseMillis(lease);
    String lk = layout.leaseKey(key);
    return backend.eval(
        "permit acquire",
        PermitScripts.ACQUIRE,
        () -> new NestedMultiOutput<>(CODEC),
        List.of(
            layout.permitHoldersKeyOf(lk),
            layout.permitEntriesKeyOf(lk),
            layout.fenceKeyOf(lk),
            layout.waitersKeyOf(lk)),
        List.of(
            owner,
            data,
            Long.toString(leaseMs),
            backend.counterTtl(leaseMs),
            backend.waitHorizon(key),
            count),
        (r, replayed) -> RedisLockBackend.acquired(r));
  }

  @Override
  public CompletableFuture<ExtendOutcome> extend(String key, String owner, Duration lease) {
    RedisLockBackend.ARGUMENTS.extend(key, owner, lease);
    long leaseMs = RedisLockBackend.leaseMillis(lease);
    String lk = layout.leaseKey(key);
    return backend.eval(
        "permit extend",
        PermitScripts.EXTEND,
        () -> new NestedMultiOutput<>(CODEC),
        List.of(
            layout.permitHoldersKeyOf(lk), layout.permitEntriesKeyOf(lk), layout.fenceKeyOf(lk)),
        List.of(owner, Long.toString(leaseMs), backend.counterTtl(leaseMs)),
        (r, replayed) -> RedisLockBackend.entryExtended(r, "permit extend"));
  }

  @Override
  public CompletableFuture<ReleaseOutcome> release(String key, String owner) {
    RedisLockBackend.ARGUMENTS.release(key, owner);
    String lk = layout.leaseKey(key);
    return backend.eval(
        "permit release",
        PermitScripts.RELEASE,
        () -> new NestedMultiOutput<>(CODEC),
        List.of(
            layout.permitHoldersKeyOf(lk), layout.permitEntriesKeyOf(lk), layout.waitersKeyOf(lk)),
        List.of(owner, backend.channel(key), backend.announceMode()),
        (r, replayed) -> RedisLockBackend.entryReleased(r, replayed, "permit release"));
  }

  /** Not part of the view: the lease engine never replaces. */
  @Override
  public CompletableFuture<ReplaceOutcome> replace(
      String key, String expectedOwner, String newOwner, String newData, Duration lease) {
    RedisLockBackend.ARGUMENTS.replace(key, expectedOwner, newOwner, newData, lease);
    return CompletableFuture.failedFuture(
        LockBackendException.other("a Redis permit view does not replace permits", null));
  }

  @Override
  public CompletableFuture<Optional<LeaseRecord>> read(String key) {
    RedisLockBackend.ARGUMENTS.read(key);
    String lk = layout.leaseKey(key);
    return backend.eval(
        "permit read",
        PermitScripts.READ,
        () -> new NestedMultiOutput<>(CODEC),
        List.of(layout.permitHoldersKeyOf(lk), layout.permitEntriesKeyOf(lk)),
        List.of(),
        (r, replayed) -> RedisLockBackend.readRecord(r));
  }

  @Override
  public String name() {
    return backend.name();
  }

  @Override
  public String toString() {
    return "RedisPermitLeases[" + layout + ", permits=" + permits + "]";
  }
}
