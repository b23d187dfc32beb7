package io.hostloom.etcd;

import io.etcd.jetcd.ByteSequence;
import io.hostloom.locking.spi.LosslessUtf8;
import java.util.Arrays;
import java.util.Objects;
import java.util.Optional;

/**
 * Where a lock key lives in etcd: two keys under the backend's prefix, with the lock key as its
 * exact WTF-8 bytes (any string round-trips, lone surrogates included; no escaping needed since
 * etcd keys are bytes).
 *
 * <ul>
 *   <li>{@code <prefix>o/<key>}: the owner, attached to the grant's etcd lease. Its presence is the
 *       live lease: etcd deletes it when the lease runs out. Transactions compare its value.
 *   <li>{@code <prefix>d/<key>}: one byte saying which grant wrote it ({@code g} acquire of a free
 *       key, {@code r} replace), then the data; without a lease, written only by a grant, so its
 *       {@code mod_revision} is the grant's fencing token. Release deletes it; after an expiry it
 *       stays (ignored, as no owner key exists) until the next grant overwrites it. The release
 *       watch covers these keys: a delete is a release, a put marked {@code r} a replace.
 * </ul>
 *
 * <p>The native views ({@link EtcdPermitView}, {@link EtcdReaderView}, {@link EtcdWriterView}) keep
 * each view key under a prefix of its own, {@code <prefix>e/<kind><n>:<key>}, where {@code <kind>}
 * is {@code s} (semaphore) or {@code w} (reader-writer) and {@code <n>} the decimal byte length of
 * the key, so no view key's prefix is another's (nor the other kind's), and nothing of a view lies
 * under {@code o/} or {@code d/}. Under it: {@code g}, the guard (the token counter, without a
 * lease), and one key per entry, a role byte then the owner's bytes, on the entry's etcd lease:
 * {@code p} a permit, {@code r} a reader, {@code h} the holding writer, {@code w} the waiting
 * writer. The release watch covers the entry keys too: an entry's delete (a release, or its expiry)
 * wakes the waits of its view key.
 */
public final class EtcdKeyLayout {
  /** The default prefix: {@value}. */
  public static final String DEFAULT_PREFIX = "hostloom/";

  /** The kind of a view key's prefix: a semaphore. */
  static final byte SEMAPHORE = 's';

  /** The kind of a view key's prefix: a reader-writer lock. */
  static final byte READ_WRITE = 'w';

  /** The role byte of a view key's guard. */
  static final byte GUARD = 'g';

  /** The role byte of a view key's token counter. */
  static final byte COUNTER = 'c';

  private final byte[] owners;
  private final byte[] data;
  private final byte[] views;
  private final byte[] watchEnd;

  private EtcdKeyLayout(String prefix) {
    this.owners = LosslessUtf8.encode(prefix + "o/");
    this.data = LosslessUtf8.encode(prefix + "d/");
    this.views = LosslessUtf8.encode(prefix + "e/");
    // the watch covers [d/, f): the data keys and the views' keys, never the owner keys
    this.watchEnd = LosslessUtf8.encode(prefix + "f");
  }

  /**
   * The layout under {@code prefix} (any non-empty string; keep it distinct per application).
   *
   * @throws IllegalArgumentException when {@code prefix} is empty
   */
  public static EtcdKeyLayout withPrefix(String prefix) {
    Objects.requireNonNull(prefix, "keyPrefix");
    if (prefix.isEmpty()) {
      throw new IllegalArgumentException("keyPrefix must not be empty");
    }
    return new EtcdKeyLayout(prefix);
  }

  /** The owner key of {@code key}. */
  public ByteSequence ownerKey(String key) {
    return ByteSequence.from(concat(owners, LosslessUtf8.encode(key)));
  }

  /** The data key of {@code key}. */
  public ByteSequence dataKey(String key) {
    return ByteSequence.from(concat(data, LosslessUtf8.encode(key)));
  }

  /** The prefix of every data key (the release watch covers it). */
  ByteSequence dataPrefix() {
    return ByteSequence.from(data);
  }

  /** The end (exclusive) of the range the release watch covers, from {@link #dataPrefix()}. */
  ByteSequence watchEnd() {
    return ByteSequence.from(watchEnd);
  }

  /**
   * The keys of {@code key} in a view of {@code kind} ({@link #SEMAPHORE}, {@link #READ_WRITE}).
   */
  ViewKeys view(byte kind, String key) {
    byte[] k = LosslessUtf8.encode(key);
    byte[] head =
        concat(views, LosslessUtf8.encode((char) kind + Integer.toString(k.length) + ":"));
    return new ViewKeys(concat(head, k));
  }

  /** The view key of a view's entry key (never of a guard), or empty for any other key. */
  Optional<String> viewKeyOf(ByteSequence entryKey) {
    byte[] k = entryKey.getBytes();
    int at = views.length;
    if (k.length <= at + 1 || !Arrays.equals(k, 0, at, views, 0, at)) {
      return Optional.empty();
    }
    at++; // the kind
    int length = 0;
    int digits = 0;
    while (at < k.length && k[at] >= '0' && k[at] <= '9' && digits < 10) {
      length = length * 10 + (k[at++] - '0');
      digits++;
    }
    if (digits == 0 || at >= k.length || k[at] != ':' || k.length - at - 1 <= length) {
      return Optional.empty();
    }
    int start = at + 1;
    if (k[start + length] == GUARD || k[start + length] == COUNTER) {
      return Optional.empty();
    }
    return Optional.of(LosslessUtf8.decode(Arrays.copyOfRange(k, start, start + length)));
  }

  /**
   * The keys of one view key: everything under {@link #all()}, the guard, and the entries by role
   * and owner.
   */
  static final class ViewKeys {
    private final byte[] base;

    private ViewKeys(byte[] base) {
      this.base = base;
    }

    /** The prefix of the guard and every entry. */
    ByteSequence all() {
      return ByteSequence.from(base);
    }

    /** The view key as a string, one char per byte: equal for equal view keys only. */
    String id() {
      return new String(base, java.nio.charset.StandardCharsets.ISO_8859_1);
    }

    ByteSequence guard() {
      return ByteSequence.from(concat(base, new byte[] {GUARD}));
    }

    ByteSequence counter() {
      return ByteSequence.from(concat(base, new byte[] {COUNTER}));
    }

    /** The entry key of {@code owner} in {@code role}. */
    ByteSequence entry(byte role, ByteSequence owner) {
      return ByteSequence.from(concat(concat(base, new byte[] {role}), owner.getBytes()));
    }

    /** The role byte of a key under {@link #all()}. */
    byte roleOf(ByteSequence key) {
      return key.getBytes()[base.length];
    }

    /** The owner bytes of an entry key under {@link #all()}. */
    ByteSequence ownerOf(ByteSequence entryKey) {
      byte[] k = entryKey.getBytes();
      return ByteSequence.from(Arrays.copyOfRange(k, base.length + 1, k.length));
    }
  }

  /** The lock key of a data key, or empty for a key outside the data prefix. */
  Optional<String> lockKeyOf(ByteSequence dataKey) {
    byte[] k = dataKey.getBytes();
    if (k.length <= data.length || !Arrays.equals(k, 0, data.length, data, 0, data.length)) {
      return Optional.empty();
    }
    return Optional.of(LosslessUtf8.decode(Arrays.copyOfRange(k, data.length, k.length)));
  }

  private static byte[] concat(byte[] a, byte[] b) {
    byte[] out = Arrays.copyOf(a, a.length + b.length);
    System.arraycopy(b, 0, out, a.length, b.length);
    return out;
  }
}
