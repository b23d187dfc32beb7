package io.hostloom.zookeeper;

import io.hostloom.locking.spi.LosslessUtf8;
import java.nio.ByteBuffer;

/**
 * The bytes of one lock znode: owner, data, the lease length and the fencing token. Expiry is not
 * stored: it is the znode's {@code mtime} (stamped by the ZooKeeper leader) plus {@link
 * #leaseMillis}; a released lease is a record with lease 0.
 *
 * @param token the grant's fencing token, or {@link #TOKEN_OF_THIS_WRITE} when the write that made
 *     this version is the grant itself: the token is then that version's {@code mzxid}, which the
 *     writer cannot know before the server assigns it
 */
record LeaseNode(String owner, String data, long leaseMillis, long token) {
  static final long TOKEN_OF_THIS_WRITE = 0;

  /** What a release leaves: a lease that ended at its own write. */
  static final LeaseNode RELEASED = new LeaseNode("", "", 0, TOKEN_OF_THIS_WRITE);

  private static final byte FORMAT = 1;

  /** A new grant: its token is the {@code mzxid} of the write that stores it. */
  static LeaseNode grant(String owner, String data, long leaseMillis) {
    return new LeaseNode(owner, data, leaseMillis, TOKEN_OF_THIS_WRITE);
  }

  byte[] encode() {
    byte[] o = LosslessUtf8.encode(owner);
    byte[] d = LosslessUtf8.encode(data);
    return ByteBuffer.allocate(1 + 8 + 8 + 4 + o.length + 4 + d.length)
        .put(FORMAT)
        .putLong(leaseMillis)
        .putLong(token)
        .putInt(o.length)
        .put(o)
        .putInt(d.length)
        .put(d)
        .array();
  }

  /** The node's record, or {@code null} for bytes this backend did not write. */
  static LeaseNode decode(byte[] bytes) {
    try {
      ByteBuffer b = ByteBuffer.wrap(bytes);
      if (b.get() != FORMAT) {
        return null;
      }
      long lease = b.getLong();
      long token = b.getLong();
      byte[] o = new byte[b.getInt()];
      b.get(o);
      byte[] d = new byte[b.getInt()];
      b.get(d);
      return b.hasRemaining()
          ? null
          : new LeaseNode(LosslessUtf8.decode(o), LosslessUtf8.decode(d), lease, token);
    } catch (RuntimeException e) { // short or garbled bytes
      return null;
    }
  }

  /** The token of the grant this record belongs to, given its version's {@code mzxid}. */
  long tokenAt(long mzxid) {
    return token == TOKEN_OF_THIS_WRITE ? mzxid : token;
  }

  /** The same grant (owner, token) with new data and lease: an extend or a same-owner acquire. */
  LeaseNode renewed(long tokenOfGrant, long newLeaseMillis) {
    return new LeaseNode(owner, data, newLeaseMillis, tokenOfGrant);
  }

  /** Owner and data stay out of logs. */
  @Override
  public String toString() {
    return "LeaseNode[leaseMillis=" + leaseMillis + ", token=" + token + "]";
  }
}
