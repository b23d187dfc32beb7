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
 */
public final class EtcdKeyLayout {
  /** The default prefix: {@value}. */
  public static final String DEFAULT_PREFIX = "hostloom/";

  private final byte[] owners;
  private final byte[] data;

  private EtcdKeyLayout(String prefix) {
    this.owners = LosslessUtf8.encode(prefix + "o/");
    this.data = LosslessUtf8.encode(prefix + "d/");
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
