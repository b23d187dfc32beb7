package io.hostloom.zookeeper;

import io.hostloom.locking.spi.LosslessUtf8;
import io.hostloom.locking.spi.support.LeaseRounding;
import io.hostloom.locking.spi.support.PermitEntries;
import io.hostloom.locking.spi.support.ReadWriteEntries;
import io.hostloom.locking.spi.support.ViewEntry;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The bytes of one native view znode: every entry of the view key (reader, writer or permit) and
 * the key's token counter. Expiry is absolute, in the server's milliseconds (the {@code mtime} of
 * the clock write of the operation that set it), so only the ZooKeeper leader's clock decides it.
 * The views decide with the shared rules ({@link PermitEntries}, {@link ReadWriteEntries}), read
 * from and written to a node here, their times in nanoseconds of the same clock.
 *
 * @param lastToken the last token a grant of this key took (0: none yet)
 * @param permits the permit count the live permit entries were granted with (0: none)
 * @param entries the entries, live or not (expired ones are dropped by the next write)
 */
record ViewNode(long lastToken, int permits, List<Entry> entries) {
  /** A key no view has written yet. */
  static final ViewNode EMPTY = new ViewNode(0, 0, List.of());

  private static final byte FORMAT = 2; // LeaseNode's is 1
  private static final long NANOS = 1_000_000; // per millisecond

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
  }

  /**
   * One entry.
   *
   * @param token its fencing token (0 for a waiting writer)
   * @param expiresAt server milliseconds; live while after the server's now
   */
  record Entry(Role role, String owner, String data, long token, long expiresAt) {
    /** The entry as the shared rules see it. */
    ViewEntry toView() {
      return new ViewEntry(owner, data, nanos(expiresAt), token);
    }

    static Entry of(Role role, ViewEntry e) {
      return new Entry(role, e.owner(), e.data(), e.token(), Math.floorDiv(e.expiresAt(), NANOS));
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

  /** The permit entries, as {@link PermitEntries} (no live entry: no count either). */
  PermitEntries permitEntries() {
    List<ViewEntry> list = new ArrayList<>(entries.size());
    for (Entry e : entries) {
      if (e.role() == Role.PERMIT) {
        list.add(e.toView());
      }
    }
    return new PermitEntries(list, lastToken, list.isEmpty() ? 0 : permits);
  }

  /** A node of the permit entries {@code p}. */
  static ViewNode of(PermitEntries p) {
    List<Entry> list = new ArrayList<>(p.entries().size());
    for (ViewEntry e : p.entries()) {
      list.add(Entry.of(Role.PERMIT, e));
    }
    return new ViewNode(p.lastToken(), p.permits(), list);
  }

  /** The reader and writer entries, as {@link ReadWriteEntries}. */
  ReadWriteEntries readWriteEntries() {
    List<ViewEntry> readers = new ArrayList<>(entries.size());
    ViewEntry writer = null;
    for (Entry e : entries) {
      if (e.role() == Role.READER) {
        readers.add(e.toView());
      } else if (e.role() == Role.HOLDING_WRITER || e.role() == Role.WAITING_WRITER) {
        writer = e.toView();
      }
    }
    return new ReadWriteEntries(readers, writer, lastToken);
  }

  /** A node of the reader-writer entries {@code rw}. */
  static ViewNode of(ReadWriteEntries rw) {
    List<Entry> list = new ArrayList<>(rw.readers().size() + 1);
    for (ViewEntry e : rw.readers()) {
      list.add(Entry.of(Role.READER, e));
    }
    ViewEntry w = rw.writer();
    if (w != null) {
      list.add(Entry.of(w.token() > 0 ? Role.HOLDING_WRITER : Role.WAITING_WRITER, w));
    }
    return new ViewNode(rw.lastToken(), 0, list);
  }

  /** Server milliseconds as the rules' nanoseconds. */
  static long nanos(long millis) {
    return millis * NANOS;
  }

  /**
   * A lease as the rules' nanoseconds: whole milliseconds, rounded up, as every expiry here is; at
   * most about 73 years ({@link LeaseRounding#FOREVER} nanoseconds), so that the server's now plus
   * it cannot overflow.
   */
  static long leaseNanos(Duration lease) {
    long ms = Math.min(LeaseRounding.ceilMillis(lease), LeaseRounding.FOREVER / NANOS);
    return ms * NANOS;
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
