package io.hostloom.locking.spi;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * The backend contract: per key, at most one live <em>lease record</em> (owner, data, expiry,
 * fencing token), changed only by the five atomic operations below. The lock kernel ({@code
 * DistributedLock}) and the WOPI lock service are both written once against this interface.
 *
 * <h2>Keys, owners, data</h2>
 *
 * <ul>
 *   <li>A key is any non-empty string (up to {@value
 *       io.hostloom.locking.spi.support.SpiLimits#MAX_KEY_LENGTH} UTF-16 units) of any characters;
 *       backends with narrower key rules map keys themselves (hashing, escaping) and document the
 *       mapping.
 *   <li>An owner is an opaque non-empty string (up to {@value
 *       io.hostloom.locking.spi.support.SpiLimits#MAX_OWNER_LENGTH} UTF-16 units), compared
 *       ordinally and exactly, on the backend, inside the same atomic operation as the write it
 *       guards. The kernel uses a random token per acquisition; the WOPI service uses a lock-id
 *       identity.
 *   <li>Data is an opaque string (up to {@value
 *       io.hostloom.locking.spi.support.SpiLimits#MAX_DATA_LENGTH} UTF-16 units, any characters)
 *       stored with the grant and returned by {@link #read}; backends must round-trip every value
 *       exactly.
 * </ul>
 *
 * <h2>Operations (each one atomic on the backend)</h2>
 *
 * <ul>
 *   <li>{@link #acquire}: grant when the key is free or its lease has expired, with a new fencing
 *       token. <b>Acquire by the current owner of a live lease succeeds</b>, resets its expiry to
 *       now + lease, keeps its fencing token and keeps its data: a retried acquisition whose first
 *       reply was lost is therefore idempotent, and a WOPI LOCK with the same id is a refresh.
 *       Otherwise answers "held" together with the holder's record.
 *   <li>{@link #extend}: owner-checked; sets expiry to now + lease. False when absent, expired or
 *       owned by someone else.
 *   <li>{@link #release}: owner-checked delete. False when absent, expired or someone else's.
 *   <li>{@link #replace}: compare-and-swap of the owner (WOPI UnlockAndRelock): when the live owner
 *       equals {@code expectedOwner}, store {@code newOwner}, {@code newData}, expiry now + lease
 *       and a new fencing token.
 *   <li>{@link #read}: the live record, or empty.
 * </ul>
 *
 * <h2>Rules every backend keeps</h2>
 *
 * <ul>
 *   <li><b>The backend's clock decides expiry</b> (Redis {@code PX}, SQL {@code now()}, the storage
 *       service's time), never the calling instance's clock. A record whose expiry is at or before
 *       the backend's now is expired: it is never returned and never blocks a grant.
 *   <li><b>No unconditional destructive step.</b> Every eviction, release and takeover is
 *       conditioned on what was read (owner, ETag, row version), so a stale actor never removes a
 *       successor's lease.
 *   <li><b>Fencing tokens strictly increase per key</b> with every grant (acquire of a free or
 *       expired key, and replace), for as long as the backend keeps its data; each backend's README
 *       says exactly when that holds (restarts, failover, deleted records).
 *   <li>A lease is at least one millisecond; backends with coarser resolution round <em>up</em>,
 *       never down to zero, and document their minimum.
 *   <li><b>Bounded calls.</b> Every call completes (normally or exceptionally) within the backend's
 *       own command timeout, also when nobody waits for it: the kernel releases with no caller to
 *       bound it.
 * </ul>
 *
 * <h2>Failures, cancellation and deadlines</h2>
 *
 * <p>Each method returns a future and must not throw, except {@link NullPointerException} or {@link
 * IllegalArgumentException} for arguments that break the rules above. An answer ("held", "absent")
 * completes the future normally. A failure completes it exceptionally with a {@link
 * LockBackendException} whose {@link LockBackendException#kind() kind} says whether the command can
 * have been applied: {@code UNAVAILABLE} only when it cannot have reached the backend, {@code
 * TIMEOUT} when no answer came in time, {@code OTHER} for anything else. Any other exception is
 * treated as {@code OTHER}.
 *
 * <p>Callers never cancel a future because <em>their</em> wait ended (interruption, {@code
 * maxWait}): the command stays in flight and its answer is still used (the kernel releases a grant
 * nobody waits for any more). The kernel cancels an acquisition's future in exactly two cases: the
 * requested lease has fully elapsed since the request was sent, or the lock was closed. A backend
 * may react to {@link CompletableFuture#cancel} by abandoning the command, but must assume it may
 * still have been applied; the kernel then sends one owner-checked release. Futures may complete on
 * any thread (an I/O event loop included): the kernel never blocks in a completion callback, and
 * backends must not run callers' blocking work on their I/O threads.
 *
 * <h2>Implementation considerations</h2>
 *
 * Each backend documents: how keys map to its storage, the round trips of each operation, its lease
 * resolution and minimum, when fencing tokens may repeat, and which errors map to which {@link
 * io.hostloom.locking.LockFailureKind}. Backends that can check their own health also implement
 * {@link BackendHealthProbe}.
 *
 * <p>Shared rules for implementers (limits, argument checks, lease rounding, the decision table,
 * and a generic backend over any store with compare-and-set) are in {@link
 * io.hostloom.locking.spi.support}; the guide is {@code docs/writing-a-backend.md} in the
 * repository.
 */
public interface LockBackend {

  /**
   * Grants {@code key} to {@code owner} for {@code lease} when it is free, expired or already owned
   * by {@code owner} (then only the expiry is reset; token and data stay).
   *
   * @param data opaque data stored with a new grant ({@code ""} for none)
   * @return granted with the fencing token, or held with the holder's record
   */
  CompletableFuture<AcquireOutcome> acquire(String key, String owner, String data, Duration lease);

  /**
   * Sets the expiry of {@code owner}'s live lease on {@code key} to now + {@code lease}.
   *
   * @return extended; or refused with another owner's live record; or refused as absent when the
   *     key is free or expired (nothing is changed when refused)
   */
  CompletableFuture<ExtendOutcome> extend(String key, String owner, Duration lease);

  /**
   * Deletes {@code owner}'s live lease on {@code key}.
   *
   * @return released when this call removed the owner's live lease; or refused with another owner's
   *     live record; or refused as absent when the key is free or expired (nothing is changed when
   *     refused)
   */
  CompletableFuture<ReleaseOutcome> release(String key, String owner);

  /**
   * Atomically swaps a live lease owned by {@code expectedOwner} to {@code newOwner} with {@code
   * newData}, a new expiry of now + {@code lease} and a new fencing token.
   *
   * @return replaced with the new token; or the mismatching live record; or absent when the key is
   *     free or expired
   */
  CompletableFuture<ReplaceOutcome> replace(
      String key, String expectedOwner, String newOwner, String newData, Duration lease);

  /** The live record of {@code key}, or empty when free or expired. */
  CompletableFuture<Optional<LeaseRecord>> read(String key);

  /** A short name for probes and logs, e.g. {@code "redis"}. Never contains credentials. */
  default String name() {
    return getClass().getSimpleName();
  }
}
