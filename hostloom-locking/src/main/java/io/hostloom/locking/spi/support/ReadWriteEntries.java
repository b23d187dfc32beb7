package io.hostloom.locking.spi.support;

import io.hostloom.locking.spi.AcquireOutcome;
import io.hostloom.locking.spi.ExtendOutcome;
import io.hostloom.locking.spi.LeaseRecord;
import io.hostloom.locking.spi.ReleaseOutcome;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The state of one key of the {@link io.hostloom.locking.spi.ReadWriteLeases} views, and the views'
 * decisions on it as pure functions, used as {@link PermitEntries} is: read the state, decide at
 * the backend's now, write {@link ViewStep#next()} back atomically. The writer is holding when its
 * token is positive and waiting when it is 0 (recorded by a write acquire refused for readers; no
 * new reader is granted while it is live). Expired entries are dropped by every decision.
 * Immutable.
 *
 * @param readers the reader entries (expired ones included until a decision drops them)
 * @param writer the writer entry, holding or waiting, or {@code null}
 * @param lastToken the last token granted for the key, by either view (0 when none)
 */
public record ReadWriteEntries(List<ViewEntry> readers, ViewEntry writer, long lastToken) {
  private static final ReadWriteEntries EMPTY = new ReadWriteEntries(List.of(), null, 0);

  /** Copies the readers. */
  public ReadWriteEntries {
    readers = List.copyOf(readers);
  }

  /** A key without entries or tokens. */
  public static ReadWriteEntries empty() {
    return EMPTY;
  }

  /**
   * Read acquire by {@code owner}: its live reader entry is extended with its token kept;
   * otherwise, with no live writer (holding or waiting) and fewer than {@code maxReaders} live
   * readers, a new reader entry with the next token (at least {@code floor}); otherwise refused
   * with the writer's record, or the record of the reader that expires first.
   */
  public ViewStep<ReadWriteEntries, AcquireOutcome> acquireRead(
      int maxReaders, String owner, String data, long now, long leaseNanos, long floor) {
    Objects.requireNonNull(owner, "owner");
    Objects.requireNonNull(data, "data");
    List<ViewEntry> live = liveReaders(now);
    ViewEntry w = liveWriter(now);
    int mine = PermitEntries.indexOf(live, owner);
    if (mine >= 0) {
      ViewEntry e = live.get(mine);
      live.set(mine, e.expiringAt(now + leaseNanos));
      return step(live, w, lastToken, AcquireOutcome.granted(e.token()));
    }
    if (w != null) {
      return step(live, w, lastToken, AcquireOutcome.held(w.toRecord(now)));
    }
    if (live.size() >= maxReaders) {
      return step(
          live, null, lastToken, AcquireOutcome.held(PermitEntries.first(live).toRecord(now)));
    }
    long token = Math.max(lastToken + 1, floor);
    live.add(new ViewEntry(owner, data, now + leaseNanos, token));
    return step(live, null, token, AcquireOutcome.granted(token));
  }

  /**
   * Write acquire by {@code owner}: its holding entry is extended with its token kept; another
   * owner's live writer refuses with its record; with no live reader the owner's entry becomes
   * holding with the next token (at least {@code floor}); with live readers it becomes or stays
   * waiting, expiring at now + lease, and the answer is refused with the reader that expires first.
   */
  public ViewStep<ReadWriteEntries, AcquireOutcome> acquireWrite(
      String owner, String data, long now, long leaseNanos, long floor) {
    Objects.requireNonNull(owner, "owner");
    Objects.requireNonNull(data, "data");
    List<ViewEntry> live = liveReaders(now);
    ViewEntry w = liveWriter(now);
    if (w != null && !w.owner().equals(owner)) {
      return step(live, w, lastToken, AcquireOutcome.held(w.toRecord(now)));
    }
    if (w != null && w.token() > 0) {
      return step(
          live, w.expiringAt(now + leaseNanos), lastToken, AcquireOutcome.granted(w.token()));
    }
    String stored = w != null ? w.data() : data;
    if (live.isEmpty()) {
      long token = Math.max(lastToken + 1, floor);
      return step(
          live,
          new ViewEntry(owner, stored, now + leaseNanos, token),
          token,
          AcquireOutcome.granted(token));
    }
    return step(
        live,
        new ViewEntry(owner, stored, now + leaseNanos, 0),
        lastToken,
        AcquireOutcome.held(PermitEntries.first(live).toRecord(now)));
  }

  /** Extend of {@code owner}'s live reader entry; otherwise refused as absent. */
  public ViewStep<ReadWriteEntries, ExtendOutcome> extendRead(
      String owner, long now, long leaseNanos) {
    List<ViewEntry> live = liveReaders(now);
    ViewEntry w = liveWriter(now);
    int mine = PermitEntries.indexOf(live, owner);
    if (mine < 0) {
      return step(live, w, lastToken, ExtendOutcome.absent());
    }
    live.set(mine, live.get(mine).expiringAt(now + leaseNanos));
    return step(live, w, lastToken, ExtendOutcome.succeeded());
  }

  /** Extend of {@code owner}'s live holding writer entry; otherwise (waiting too) absent. */
  public ViewStep<ReadWriteEntries, ExtendOutcome> extendWrite(
      String owner, long now, long leaseNanos) {
    List<ViewEntry> live = liveReaders(now);
    ViewEntry w = liveWriter(now);
    if (w == null || w.token() == 0 || !w.owner().equals(owner)) {
      return step(live, w, lastToken, ExtendOutcome.absent());
    }
    return step(live, w.expiringAt(now + leaseNanos), lastToken, ExtendOutcome.succeeded());
  }

  /** Release of {@code owner}'s live reader entry; otherwise refused as absent. */
  public ViewStep<ReadWriteEntries, ReleaseOutcome> releaseRead(String owner, long now) {
    List<ViewEntry> live = liveReaders(now);
    ViewEntry w = liveWriter(now);
    int mine = PermitEntries.indexOf(live, owner);
    if (mine < 0) {
      return step(live, w, lastToken, ReleaseOutcome.absent());
    }
    live.remove(mine);
    return step(live, w, lastToken, ReleaseOutcome.succeeded());
  }

  /** Release of {@code owner}'s live writer entry, holding or waiting; otherwise absent. */
  public ViewStep<ReadWriteEntries, ReleaseOutcome> releaseWrite(String owner, long now) {
    List<ViewEntry> live = liveReaders(now);
    ViewEntry w = liveWriter(now);
    if (w == null || !w.owner().equals(owner)) {
      return step(live, w, lastToken, ReleaseOutcome.absent());
    }
    return step(live, null, lastToken, ReleaseOutcome.succeeded());
  }

  /** The live reader entry that expires first, or empty. */
  public Optional<LeaseRecord> readReaders(long now) {
    List<ViewEntry> live = liveReaders(now);
    return live.isEmpty() ? Optional.empty() : Optional.of(PermitEntries.first(live).toRecord(now));
  }

  /** The live writer entry, holding or waiting, or empty. */
  public Optional<LeaseRecord> readWriter(long now) {
    ViewEntry w = liveWriter(now);
    return w == null ? Optional.empty() : Optional.of(w.toRecord(now));
  }

  /** The number of entries live at {@code now} (a waiting writer counts). */
  public int liveCount(long now) {
    return liveReaders(now).size() + (liveWriter(now) == null ? 0 : 1);
  }

  private static <O> ViewStep<ReadWriteEntries, O> step(
      List<ViewEntry> live, ViewEntry w, long token, O outcome) {
    return new ViewStep<>(new ReadWriteEntries(live, w, token), outcome);
  }

  private List<ViewEntry> liveReaders(long now) {
    List<ViewEntry> live = new ArrayList<>(readers.size() + 1);
    for (ViewEntry e : readers) {
      if (e.liveAt(now)) {
        live.add(e);
      }
    }
    return live;
  }

  private ViewEntry liveWriter(long now) {
    return writer != null && writer.liveAt(now) ? writer : null;
  }
}
