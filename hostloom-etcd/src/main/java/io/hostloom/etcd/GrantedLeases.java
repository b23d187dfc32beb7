package io.hostloom.etcd;

import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.KeyValue;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;

/**
 * The owner keys this backend instance last wrote, each with a lower bound of its etcd lease's end,
 * so that a read and an extension of a lock this instance holds can skip a request.
 *
 * <p>An entry names the exact write: the owner key's {@code mod_revision} (etcd's revision of the
 * transaction that put it; any later put or delete changes it) and its lease. The lower-bound end
 * is the time the request that (re)started the lease was <em>sent</em> (the grant, or a keep-alive
 * that answered), plus the lease's TTL as etcd answered it, less a drift allowance of 0.1 % for the
 * rate of the leader's clock against this one (local monotonic clock, {@link System#nanoTime()};
 * NTP bounds a disciplined clock's rate error at 500 ppm): etcd starts the TTL when the leader
 * applies the request, after it was sent, and a lease, once started, ends no earlier (a new leader
 * renews every lease to its full TTL; an expired lease cannot be renewed, etcd waits for its
 * revocation). Revocation deletes the lease's keys at once, so a key seen on a lease before that
 * bound was live when it was seen.
 *
 * <p>Bounded: at most {@link #MAX_ENTRIES}; when full, entries past their bound are dropped, and
 * when still full a new entry is not kept (that key then takes the path with one request more). A
 * missing or stale entry only costs that request: every use checks the entry against what etcd
 * answered (the revision, the lease) before relying on it.
 */
final class GrantedLeases {
  /** At most this many keys are remembered. */
  static final int MAX_ENTRIES = 10_000;

  /**
   * One remembered write of an owner key.
   *
   * @param owner the owner bytes written
   * @param leaseId the lease the key was put on
   * @param modRevision the owner key's {@code mod_revision} after that write
   * @param requestedTtl the TTL (seconds) the operation asked for: an extension by keep-alive
   *     restarts the lease at its own TTL, so it serves only an extension asking for the same
   * @param grantedTtl the TTL (seconds) etcd answered (it raises short ones to its minimum)
   * @param endNanos the lower bound of the lease's end, on {@link System#nanoTime()}
   */
  record Entry(
      ByteSequence owner,
      long leaseId,
      long modRevision,
      long requestedTtl,
      long grantedTtl,
      long endNanos) {}

  private final Map<String, Entry> byKey = new ConcurrentHashMap<>();
  private final LongSupplier nanoTime;

  GrantedLeases(LongSupplier nanoTime) {
    this.nanoTime = nanoTime;
  }

  /** The local monotonic time, as the entries measure it. */
  long now() {
    return nanoTime.getAsLong();
  }

  /**
   * The lower bound of the end of a lease of {@code ttlSeconds} (re)started by a request sent at.
   */
  static long endOf(long sentNanos, long ttlSeconds) {
    long ttl = Math.multiplyExact(ttlSeconds, 1_000_000_000L);
    return sentNanos + ttl - ttl / 1000;
  }

  /** Remembers the write of {@code key}'s owner key (replacing what was remembered for the key). */
  void wrote(String key, Entry entry) {
    if (byKey.size() >= MAX_ENTRIES && !byKey.containsKey(key)) {
      long now = now();
      byKey.values().removeIf(e -> now - e.endNanos() >= 0);
      if (byKey.size() >= MAX_ENTRIES) {
        return;
      }
    }
    byKey.put(key, entry);
  }

  /** The entry of {@code key} while its lease's lower-bound end is ahead, else null. */
  Entry live(String key) {
    Entry e = byKey.get(key);
    return e != null && nanoTime.getAsLong() - e.endNanos() < 0 ? e : null;
  }

  /**
   * The entry of {@code key} if {@code owner} (as etcd answered it) is exactly the write it names,
   * and its lease's lower-bound end is still ahead; else null.
   */
  Entry confirms(String key, KeyValue owner) {
    Entry e = live(key);
    return e != null && e.modRevision() == owner.getModRevision() && e.leaseId() == owner.getLease()
        ? e
        : null;
  }

  /**
   * Moves the lower-bound end of {@code entry}'s lease to {@code endNanos} (a keep-alive sent
   * earlier than it answered), if the key is still remembered with that very write.
   */
  void extended(String key, Entry entry, long endNanos) {
    byKey.computeIfPresent(
        key,
        (k, e) ->
            e.leaseId() == entry.leaseId() && e.modRevision() == entry.modRevision()
                ? new Entry(
                    e.owner(),
                    e.leaseId(),
                    e.modRevision(),
                    e.requestedTtl(),
                    e.grantedTtl(),
                    Math.max(e.endNanos(), endNanos))
                : e);
  }

  /** Forgets {@code key}: released, taken by another owner, or seen not as remembered. */
  void forget(String key) {
    byKey.remove(key);
  }

  /** Forgets {@code key} only if it is still remembered as {@code entry}. */
  void forget(String key, Entry entry) {
    byKey.remove(key, entry);
  }

  /** Entries kept (for tests). */
  int size() {
    return byKey.size();
  }
}
