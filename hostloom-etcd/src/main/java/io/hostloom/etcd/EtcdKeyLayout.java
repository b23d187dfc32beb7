package io.hostloom.etcd;

import io.etcd.jetcd.ByteSequence;
import io.hostloom.locking.spi.Wtf8;
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
 *   <li>{@code <prefix>d/<key>}: the data, without a lease, written only by a grant (acquire of a
 *       free key, replace); its {@code mod_revision} is the grant's fencing token. Release deletes
 *       it; after an expiry it stays (ignored, as no owner key exists) until the next grant.
 * </ul>
 */
public final class EtcdKeyLayout {
  /** The default prefix: {@value}. */
  public static final String DEFAULT_PREFIX = "hostloom/";

  private final byte[] owners;
  private final byte[] data;

  private EtcdKeyLayout(String prefix) {
    this.owners = Wtf8.encode(prefix + "o/");
    this.data = Wtf8.encode(prefix + "d/");
  }

  /**
   * @throws IllegalArgumentException when {@code prefix} is empty
   */
  static EtcdKeyLayout withPrefix(String prefix) {
    Objects.requireNonNull(prefix, "keyPrefix");
    if (prefix.isEmpty()) {
      throw new IllegalArgumentException("keyPrefix must not be empty");
    }
    return new EtcdKeyLayout(prefix);
  }

  /** The owner key of {@code key}. */
  public ByteSequence ownerKey(String key) {
    return ByteSequence.from(concat(owners, Wtf8.encode(key)));
  }

  /** The data key of {@code key}. */
  public ByteSequence dataKey(String key) {
    return ByteSequence.from(concat(data, Wtf8.encode(key)));
  }

  /** The prefix of every owner key (the release watch covers it). */
  ByteSequence ownerPrefix() {
    return ByteSequence.from(owners);
  }

  /** The lock key of an owner key, or empty for a key outside the owner prefix. */
  Optional<String> lockKeyOf(ByteSequence ownerKey) {
    byte[] k = ownerKey.getBytes();
    if (k.length <= owners.length
        || !Arrays.equals(k, 0, owners.length, owners, 0, owners.length)) {
      return Optional.empty();
    }
    return Optional.of(Wtf8.decode(Arrays.copyOfRange(k, owners.length, k.length)));
  }

  private static byte[] concat(byte[] a, byte[] b) {
    byte[] out = Arrays.copyOf(a, a.length + b.length);
    System.arraycopy(b, 0, out, a.length, b.length);
    return out;
  }
}
