package io.hostloom.etcd;

import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.KeyValue;
import io.etcd.jetcd.kv.GetResponse;
import io.etcd.jetcd.op.Cmp;
import io.etcd.jetcd.op.CmpTarget;
import io.etcd.jetcd.op.Op;
import io.etcd.jetcd.options.PutOption;
import io.etcd.jetcd.watch.WatchEvent;
import io.hostloom.locking.spi.LeaseRecord;
import io.hostloom.locking.spi.LockBackendException;
import io.hostloom.locking.spi.LosslessUtf8;
import io.hostloom.locking.spi.support.LeaseRounding;
import java.time.Duration;
import java.util.Arrays;

/**
 * How a lock record is stored in the values of its two keys (see {@link EtcdKeyLayout}), and read
 * back into a {@link LeaseRecord}:
 *
 * <ul>
 *   <li>owner key: the owner's exact WTF-8 bytes, put on the grant's etcd lease; the lease's TTL is
 *       the requested lease rounded up to whole seconds, and its remaining TTL is the record's
 *       remaining time;
 *   <li>data key: one marker byte ({@code g} a grant of a free key, {@code r} a replace), then the
 *       data's WTF-8 bytes; its {@code mod_revision} is the fencing token.
 * </ul>
 */
final class RecordCodec {
  // etcd's MaxLeaseTTL (lease/lessor.go): longer TTLs are refused
  private static final long MAX_TTL_SECONDS = 9_000_000_000L;
  static final byte GRANTED = 'g';
  static final byte REPLACED = 'r';

  private RecordCodec() {}

  /**
   * The etcd lease TTL for a requested lease: whole seconds, rounded up, at most etcd's maximum.
   */
  static long ttlSeconds(Duration lease) {
    return Math.min(LeaseRounding.ceilSeconds(lease), MAX_TTL_SECONDS);
  }

  /** The owner key's value for {@code owner}. */
  static ByteSequence owner(String owner) {
    return ByteSequence.from(LosslessUtf8.encode(owner));
  }

  /** The condition that there is no owner key: the lock is free. */
  static Cmp free(ByteSequence ownerKey) {
    return new Cmp(ownerKey, Cmp.Op.EQUAL, CmpTarget.createRevision(0));
  }

  /** The condition that the owner key holds exactly {@code owner}'s bytes. */
  static Cmp owned(ByteSequence ownerKey, ByteSequence owner) {
    return new Cmp(ownerKey, Cmp.Op.EQUAL, CmpTarget.value(owner));
  }

  /** The put of the owner key on {@code leaseId}, answering the previous value (and its lease). */
  static Op putOwner(ByteSequence ownerKey, ByteSequence owner, long leaseId) {
    return Op.put(ownerKey, owner, PutOption.builder().withLeaseId(leaseId).withPrevKV().build());
  }

  /** The data key's value: the marker of the grant that writes it, then {@code data}. */
  static ByteSequence data(byte grant, String data) {
    byte[] d = LosslessUtf8.encode(data);
    byte[] out = new byte[d.length + 1];
    out[0] = grant;
    System.arraycopy(d, 0, out, 1, d.length);
    return ByteSequence.from(out);
  }

  /** Whether a watch event is a replace's write of a data key. */
  static boolean replaced(WatchEvent e) {
    ByteSequence v = e.getKeyValue().getValue();
    return e.getEventType() == WatchEvent.EventType.PUT
        && !v.isEmpty()
        && v.getBytes()[0] == REPLACED;
  }

  /**
   * The record of an owner key and its data key, with {@code ttlSeconds} of its lease left (etcd
   * answers whole seconds, truncated: under a second left is still a live lease, so 1 ms).
   */
  static LeaseRecord record(KeyValue owner, KeyValue data, long ttlSeconds) {
    byte[] v = data.getValue().getBytes();
    return new LeaseRecord(
        LosslessUtf8.decode(owner.getValue().getBytes()),
        LosslessUtf8.decode(Arrays.copyOfRange(v, 1, v.length)),
        ttlSeconds > 0 ? Duration.ofSeconds(ttlSeconds) : Duration.ofMillis(1),
        data.getModRevision());
  }

  /** The one key a get found; a lock record always has both keys. */
  static KeyValue single(GetResponse get) {
    if (get.getKvs().isEmpty()) {
      throw LockBackendException.other("etcd lock record without its data key", null);
    }
    return get.getKvs().get(0);
  }
}
