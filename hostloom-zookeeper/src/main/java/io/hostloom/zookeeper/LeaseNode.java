package io.hostloom.zookeeper;

import io.hostloom.locking.spi.Wtf8;
import java.nio.ByteBuffer;

/**
 * The bytes of one lock znode: owner, data and the lease length. Neither expiry nor token is
 * stored: expiry is the znode's {@code mtime} (stamped by the ZooKeeper leader) plus {@link
 * #leaseMillis}, and the fencing token is the znode's {@code czxid}, because every grant creates
 * the znode anew.
 */
record LeaseNode(String owner, String data, long leaseMillis) {
  private static final byte FORMAT = 1;

  byte[] encode() {
    byte[] o = Wtf8.encode(owner);
    byte[] d = Wtf8.encode(data);
    return ByteBuffer.allocate(1 + 8 + 4 + o.length + 4 + d.length)
        .put(FORMAT)
        .putLong(leaseMillis)
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
      byte[] o = new byte[b.getInt()];
      b.get(o);
      byte[] d = new byte[b.getInt()];
      b.get(d);
      return b.hasRemaining() ? null : new LeaseNode(Wtf8.decode(o), Wtf8.decode(d), lease);
    } catch (RuntimeException e) { // short or garbled bytes
      return null;
    }
  }

  /** Owner and data stay out of logs. */
  @Override
  public String toString() {
    return "LeaseNode[leaseMillis=" + leaseMillis + "]";
  }
}
