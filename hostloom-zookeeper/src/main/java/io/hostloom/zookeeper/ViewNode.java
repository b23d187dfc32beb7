package io.hostloom.zookeeper;

import io.hostloom.locking.spi.LeaseRecord;
import io.hostloom.locking.spi.LosslessUtf8;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * The bytes of one native view znode: every entry of the view key (reader, writer or permit) and
 * the key's token counter. Expiry is absolute, in the server's milliseconds (the {@code mtime} of
 * the clock write of the operation that set it), so only the ZooKeeper leader's clock decides it.
 *
 * @param lastToken the last token a grant of this key took (0: none yet)
 * @param permits the permit count the live permit entries were granted with (0: none)
 * @param entries the entries, live or not (expired ones are dropped by the next write)
 */
record ViewNode(long lastToken, int permits, List<Entry> entries) {
  /** A key no view has written yet. */
  static final ViewNode EMPTY = new ViewNode(0, 0, List.of());

  private static final byte FORMAT = 2; // LeaseNode's is 1

  /** What an entry is; {@link #code} is its byte in the znode. */
  enum Role {
    READER(1),
    HOLDING_WRITER(2),
    WAITING_WRITER(3),
    PERMIT(4);

    final byte code;

    Role(int code) {
      this.code = (byte) code;
    }

    static Role of(byte code) {
      for (Role r : values()) {
        if (r.code == code) {
          return r;
        }
      }
      return null;
    }

    boolean reader() {
      return this == READER;
    }

    boolean writer() {
      return this == HOLDING_WRITER || this == WAITING_WRITER;
    }

    boolean holdingWriter() {
      return this == HOLDING_WRITER;
    }

    boolean permit() {
      return this == PERMIT;
    }
  }

  /**
   * One entry.
   *
   * @param token its fencing token (0 for a waiting writer)
   * @param expiresAt server milliseconds; live while after the server's now
   */
  record Entry(Role role, String owner, String data, long token, long expiresAt) {
    /** The entry as a lease record at server time {@code now} (while live). */
    LeaseRecord recordAt(long now) {
      return new LeaseRecord(owner, data, Duration.ofMillis(expiresAt - now), token);
    }

    Entry expiringAt(long newExpiry) {
      return new Entry(role, owner, data, token, newExpiry);
    }

    /** Owner and data stay out of logs. */
    @Override
    public String toString() {
      return "Entry[" + role + ", token=" + token + ", expiresAt=" + expiresAt + "]";
    }
  }

  ViewNode {
    entries = List.copyOf(entries);
  }

  /** This node without the entries that are expired at server time {@code now}. */
  ViewNode liveAt(long now) {
    return new ViewNode(
        lastToken, permits, entries.stream().filter(e -> e.expiresAt() > now).toList());
  }

  /** The entry of {@code owner} among those {@code of}, if any. */
  Optional<Entry> find(Predicate<Role> of, String owner) {
    return entries.stream().filter(e -> of.test(e.role()) && e.owner().equals(owner)).findFirst();
  }

  /** The entry among those {@code of} that expires first, if any. */
  Optional<Entry> firstToExpire(Predicate<Role> of) {
    return entries.stream()
        .filter(e -> of.test(e.role()))
        .min(Comparator.comparingLong(Entry::expiresAt));
  }

  long count(Predicate<Role> of) {
    return entries.stream().filter(e -> of.test(e.role())).count();
  }

  /** This node with {@code old} (an entry of it, or {@code null}) replaced by {@code next}. */
  ViewNode with(Entry old, Entry next) {
    List<Entry> list = new ArrayList<>(entries);
    if (old != null) {
      list.remove(old); // an owner has one entry per role, so equal entries are the same one
    }
    if (next != null) {
      list.add(next);
    }
    return new ViewNode(lastToken, permits, list);
  }

  /** This node with {@code added} taking the new token {@code token} (the counter moves to it). */
  ViewNode granting(Entry added, int permitCount) {
    List<Entry> list = new ArrayList<>(entries);
    list.add(added);
    return new ViewNode(added.token(), permitCount, list);
  }

  byte[] encode() {
    List<byte[]> owners = new ArrayList<>(entries.size());
    List<byte[]> data = new ArrayList<>(entries.size());
    int size = 1 + 8 + 4 + 4;
    for (Entry e : entries) {
      byte[] o = LosslessUtf8.encode(e.owner());
      byte[] d = LosslessUtf8.encode(e.data());
      owners.add(o);
      data.add(d);
      size += 1 + 8 + 8 + 4 + o.length + 4 + d.length;
    }
    ByteBuffer b = ByteBuffer.allocate(size).put(FORMAT).putLong(lastToken).putInt(permits);
    b.putInt(entries.size());
    for (int i = 0; i < entries.size(); i++) {
      Entry e = entries.get(i);
      b.put(e.role().code)
          .putLong(e.token())
          .putLong(e.expiresAt())
          .putInt(owners.get(i).length)
          .put(owners.get(i))
          .putInt(data.get(i).length)
          .put(data.get(i));
    }
    return b.array();
  }

  /** The node's content, or {@code null} for bytes this backend's views did not write. */
  static ViewNode decode(byte[] bytes) {
    try {
      ByteBuffer b = ByteBuffer.wrap(bytes);
      if (b.get() != FORMAT) {
        return null;
      }
      long last = b.getLong();
      int permits = b.getInt();
      int n = b.getInt();
      if (n < 0 || n > b.remaining()) {
        return null;
      }
      List<Entry> entries = new ArrayList<>(n);
      for (int i = 0; i < n; i++) {
        Role role = Role.of(b.get());
        if (role == null) {
          return null;
        }
        long token = b.getLong();
        long expiry = b.getLong();
        byte[] o = new byte[b.getInt()];
        b.get(o);
        byte[] d = new byte[b.getInt()];
        b.get(d);
        entries.add(new Entry(role, LosslessUtf8.decode(o), LosslessUtf8.decode(d), token, expiry));
      }
      return b.hasRemaining() ? null : new ViewNode(last, permits, entries);
    } catch (RuntimeException e) { // short or garbled bytes
      return null;
    }
  }

  /** Owners and data stay out of logs. */
  @Override
  public String toString() {
    return "ViewNode[lastToken="
        + lastToken
        + ", permits="
        + permits
        + ", entries="
        + entries
        + "]";
  }
}
