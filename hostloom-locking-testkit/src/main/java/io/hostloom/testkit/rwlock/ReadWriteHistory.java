package io.hostloom.testkit.rwlock;

import io.hostloom.locking.rwlock.ReadWriteHandle;
import io.hostloom.testkit.HistoryReport;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * A thread-safe recorder of read and write holds for {@link ReadWriteHistoryChecker}: call {@link
 * #enter} right after a grant was seen (with the time the acquisition was sent) and {@link
 * Hold#exit()} before the release is sent.
 */
public final class ReadWriteHistory {
  private final ConcurrentLinkedQueue<Hold> holds = new ConcurrentLinkedQueue<>();

  /** The clock of every recorded time. */
  public static long now() {
    return System.nanoTime();
  }

  /** Records a grant of {@code handle}, requested at {@code sentNanos} with {@code lease}. */
  public Hold enter(ReadWriteHandle handle, String holder, long sentNanos, Duration lease) {
    Hold h =
        new Hold(
            handle.key(),
            handle.mode() == ReadWriteHandle.Mode.WRITE,
            holder,
            handle.fencingToken(),
            sentNanos,
            now(),
            sentNanos + lease.toNanos());
    holds.add(h);
    return h;
  }

  /** What was recorded so far. */
  public List<ReadWriteHold> holds() {
    List<ReadWriteHold> out = new ArrayList<>();
    for (Hold h : holds) {
      out.add(h.snapshot());
    }
    return out;
  }

  /** {@link ReadWriteHistoryChecker#check} of {@link #holds()}. */
  public HistoryReport check() {
    return ReadWriteHistoryChecker.check(holds());
  }

  /** One recorded hold. */
  public static final class Hold {
    private final String key;
    private final boolean write;
    private final String holder;
    private final long token;
    private final long sent;
    private final long granted;
    private long leaseEnd;
    private long exit = Long.MAX_VALUE;

    private Hold(
        String key,
        boolean write,
        String holder,
        long token,
        long sent,
        long granted,
        long leaseEnd) {
      this.key = key;
      this.write = write;
      this.holder = holder;
      this.token = token;
      this.sent = sent;
      this.granted = granted;
      this.leaseEnd = leaseEnd;
    }

    /** A successful extension sent at {@code sentNanos}: the lease bound becomes its own. */
    public synchronized void extended(long sentNanos, Duration lease) {
      leaseEnd = sentNanos + lease.toNanos();
    }

    /** The holder stops relying on the grant now (record it before the release is sent). */
    public synchronized void exit() {
      if (exit == Long.MAX_VALUE) {
        exit = now();
      }
    }

    synchronized ReadWriteHold snapshot() {
      return new ReadWriteHold(key, write, holder, token, sent, granted, leaseEnd, exit);
    }
  }
}
