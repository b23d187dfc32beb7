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
import java.nio.charset.StandardCharsets;
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
 *
 * <p>A view's entry key (the owner is in its name) holds {@code <token>:<permits>:<data>}: the
 * entry's fencing token in decimal, the permit count of the view that granted it ({@code 0} for
 * reader-writer entries), then the data's WTF-8 bytes; it lives on the entry's etcd lease, whose
 * remaining TTL is the entry's remaining time. A view's counter holds the key's last token in
 * decimal.
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
        remaining(ttlSeconds),
        data.getModRevision());
  }

  private static Duration remaining(long ttlSeconds) {
    return ttlSeconds > 0 ? Duration.ofSeconds(ttlSeconds) : Duration.ofMillis(1);
  }

  /** A view entry's value. */
  static ByteSequence entry(long token, int permits, String data) {
    byte[] head = (token + ":" + permits + ":").getBytes(StandardCharsets.US_ASCII);
    byte[] d = LosslessUtf8.encode(data);
    byte[] out = Arrays.copyOf(head, head.length + d.length);
    System.arraycopy(d, 0, out, head.length, d.length);
    return ByteSequence.from(out);
  }

  /** A view entry's value, decoded. */
  record Entry(long token, int permits, String data) {}

  static Entry entryOf(KeyValue entry) {
    byte[] v = entry.getValue().getBytes();
    int first = indexOf(v, 0);
    int second = first < 0 ? -1 : indexOf(v, first + 1);
    if (second < 0) {
      throw LockBackendException.other("etcd view entry without its token", null);
    }
    try {
      return new Entry(
          Long.parseLong(new String(v, 0, first, StandardCharsets.US_ASCII)),
          Integer.parseInt(new String(v, first + 1, second - first - 1, StandardCharsets.US_ASCII)),
          LosslessUtf8.decode(Arrays.copyOfRange(v, second + 1, v.length)));
    } catch (NumberFormatException e) {
      throw LockBackendException.other("etcd view entry with a malformed token", e);
    }
  }

  private static int indexOf(byte[] v, int from) {
    for (int i = from; i < v.length; i++) {
      if (v[i] == ':') {
        return i;
      }
    }
    return -1;
  }

  /** The record of a view entry of {@code owner}, with {@code ttlSeconds} of its lease left. */
  static LeaseRecord entryRecord(ByteSequence owner, Entry entry, long ttlSeconds) {
    return new LeaseRecord(
        LosslessUtf8.decode(owner.getBytes()), entry.data(), remaining(ttlSeconds), entry.token());
  }

  /** A view counter's value: the key's last token. */
  static ByteSequence counter(long token) {
    return ByteSequence.from(Long.toString(token), StandardCharsets.US_ASCII);
  }

  /** The last token a view counter holds. */
  static long counterOf(KeyValue counter) {
    try {
      return Long.parseLong(counter.getValue().toString(StandardCharsets.US_ASCII));
    } catch (NumberFormatException e) {
      throw LockBackendException.other("etcd view counter malformed", e);
    }
  }

  /** The one key a get found; a lock record always has both keys. */
  static KeyValue single(GetResponse get) {
    if (get.getKvs().isEmpty()) {
      throw LockBackendException.other("etcd lock record without its data key", null);
    }
    return get.getKvs().get(0);
  }
}
