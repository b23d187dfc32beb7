package io.hostloom.locking.spi.support;

import io.hostloom.locking.LockFailureKind;
import io.hostloom.locking.spi.LockBackendException;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * The versioned-record strategy: the few primitives of a store with compare-and-set on which {@link
 * VersionedRecordLockBackend} builds a whole {@link io.hostloom.locking.spi.LockBackend}. One
 * record per key; every write is conditional, on absence or on the version of a read.
 *
 * <h2>Contract</h2>
 *
 * <ul>
 *   <li><b>Atomic, conditional writes.</b> {@link #create} applies only if the key has no record;
 *       {@link #compareAndSet} and {@link #compareAndDelete} only if the record's version is still
 *       the one given. A write whose condition fails changes nothing and answers {@link
 *       WriteResult#lost()} (or {@link WriteResult#lost(Optional)} with the current record, when
 *       the same round trip told it); it never overwrites anything unconditionally.
 *   <li><b>The store's clock decides expiry.</b> A claim's lease runs from the store's now when the
 *       write is applied (an etcd lease's TTL, a ZooKeeper TTL node or the server's {@code mtime},
 *       a blob's {@code Last-Modified}); {@link #read} reports {@link VersionedRecord#remaining} by
 *       the same clock, never the caller's. When unsure, report less time left, never more. Expired
 *       records may stay readable (reported with no time left): the backend overwrites them by
 *       version.
 *   <li><b>Fencing tokens are the store's.</b> A {@linkplain Claim#isNewGrant() new grant} gets a
 *       token strictly above every earlier grant's on the key, also after the record was deleted
 *       (etcd: the revision of the grant; ZooKeeper: the {@code zxid} of the write; Azure: epoch
 *       and sequence); a {@linkplain Claim#keeping kept} token is stored as given. The token comes
 *       back in {@link WriteResult#written}.
 *   <li><b>Futures, not exceptions.</b> Methods never throw; a failure completes the future
 *       exceptionally, classified by {@link #failureKind}. Calls should be bounded by the store's
 *       client; the generic backend bounds each whole operation and cancels the pending call's
 *       future when its deadline passes. Futures may complete on any thread; the backend never
 *       blocks in their callbacks.
 * </ul>
 *
 * <p>Implementations are thread-safe. The version type {@code V} is opaque to the backend: a {@code
 * Long} revision, a ZooKeeper {@code Stat}, or the whole state a write needs (Azure keeps the ETag,
 * lease id and epoch in it).
 *
 * @param <V> the store's version of a record
 */
public interface VersionedRecordStore<V> {

  /** The record of {@code key}, live or not, or empty when the key has none. */
  CompletableFuture<Optional<VersionedRecord<V>>> read(String key);

  /** Creates {@code key}'s record with {@code claim} (a new grant) if the key has none. */
  CompletableFuture<WriteResult<V>> create(String key, Claim claim);

  /** Replaces {@code key}'s record with {@code claim} if its version is still {@code version}. */
  CompletableFuture<WriteResult<V>> compareAndSet(String key, V version, Claim claim);

  /**
   * Removes {@code key}'s record if its version is still {@code version}; answers {@link
   * WriteResult#deleted()}. A store whose fencing needs a marker may keep one, reported by {@link
   * #read} as a record with no time left.
   */
  CompletableFuture<WriteResult<V>> compareAndDelete(String key, V version);

  /**
   * Best-effort removal of an expired record {@link #read} returned, at the backend's {@code read};
   * by default {@link #compareAndDelete}. A store that removes expired records itself, or must keep
   * one, returns {@code WriteResult.deleted()} without a request. Failures are ignored.
   */
  default CompletableFuture<WriteResult<V>> evictExpired(String key, V version) {
    return compareAndDelete(key, version);
  }

  /**
   * The store's lease resolution: leases are rounded up to a whole multiple of it (at least one)
   * before they reach {@link Claim#lease}; default 1 ms. etcd's TTLs are whole seconds.
   */
  default Duration leaseResolution() {
    return Duration.ofMillis(1);
  }

  /**
   * Rejects, with {@link IllegalArgumentException} and before anything is sent, an owner or data
   * the store could not hold (on top of {@link BackendArguments}); by default nothing.
   */
  default void checkStorable(String owner, String data) {}

  /**
   * What a failure of one of this store's futures means for a command that may have been sent:
   * {@code UNAVAILABLE} only when it cannot have reached the store. By default the kind of a {@link
   * LockBackendException}, else {@code OTHER}.
   */
  default LockFailureKind failureKind(Throwable error) {
    return error instanceof LockBackendException
        ? ((LockBackendException) error).kind()
        : LockFailureKind.OTHER;
  }

  /**
   * A short description of a failure for messages: never owner tokens, data, or endpoints with
   * credentials. By default the type and message of the innermost cause.
   */
  default String describe(Throwable error) {
    Throwable root = error;
    while (root.getCause() != null && root.getCause() != root) {
      root = root.getCause();
    }
    return root.getMessage() == null
        ? root.getClass().getSimpleName()
        : root.getClass().getSimpleName() + ": " + root.getMessage();
  }
}
