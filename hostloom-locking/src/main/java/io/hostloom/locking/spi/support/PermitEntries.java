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
 * The state of one semaphore key of a {@link io.hostloom.locking.spi.PermitLeases} view, and the
 * view's decisions on it as pure functions: a backend that keeps a key's entries in one record (a
 * map entry, a znode, a row) reads the state, decides with these methods at its clock's now and
 * writes {@link ViewStep#next()} back in one atomic step (a compute, or a conditional write that
 * fails when the record changed since the read). Expired entries are dropped by every decision.
 * Immutable.
 *
 * @param entries the key's entries (expired ones included until a decision drops them)
 * @param lastToken the last token granted for the key (0 when none)
 * @param permits the permit count the live entries were granted with (0 when none is live)
 */
public record PermitEntries(List<ViewEntry> entries, long lastToken, int permits) {
  private static final PermitEntries EMPTY = new PermitEntries(List.of(), 0, 0);

  /** Copies the entries. */
  public PermitEntries {
    entries = List.copyOf(entries);
  }

  /** A key without entries or tokens. */
  public static PermitEntries empty() {
    return EMPTY;
  }

  /**
   * Acquire by {@code owner} in a view of {@code permits} permits, at the backend's {@code now}:
   * the owner's live entry is extended with its token kept; otherwise, with fewer than {@code
   * permits} live entries all of that count, a new entry gets the next token, at least {@code
   * floor}, whose remainder modulo {@code permits} is the lowest free slot; otherwise refused with
   * the live entry that expires first.
   *
   * @param floor the smallest token the backend allows (a per-instance counter's next value, or 0)
   */
  public ViewStep<PermitEntries, AcquireOutcome> acquire(
      int permits, String owner, String data, long now, long leaseNanos, long floor) {
    Objects.requireNonNull(owner, "owner");
    Objects.requireNonNull(data, "data");
    List<ViewEntry> live = live(now);
    int mine = indexOf(live, owner);
    if (mine >= 0) {
      ViewEntry e = live.get(mine);
      live.set(mine, e.expiringAt(now + leaseNanos));
      return step(live, lastToken, this.permits, AcquireOutcome.granted(e.token()));
    }
    if (live.size() >= permits || (!live.isEmpty() && this.permits != permits)) {
      return step(live, lastToken, this.permits, AcquireOutcome.held(first(live).toRecord(now)));
    }
    boolean[] used = new boolean[permits];
    for (ViewEntry e : live) {
      used[(int) Math.floorMod(e.token(), (long) permits)] = true;
    }
    int slot = 0;
    while (used[slot]) {
      slot++;
    }
    long base = Math.max(lastToken + 1, floor);
    long token = base + Math.floorMod(slot - base, (long) permits);
    live.add(new ViewEntry(owner, data, now + leaseNanos, token));
    return step(live, token, permits, AcquireOutcome.granted(token));
  }

  /** Extend of {@code owner}'s live entry to now + lease; otherwise refused as absent. */
  public ViewStep<PermitEntries, ExtendOutcome> extend(String owner, long now, long leaseNanos) {
    List<ViewEntry> live = live(now);
    int mine = indexOf(live, owner);
    if (mine < 0) {
      return step(live, lastToken, permits, ExtendOutcome.absent());
    }
    live.set(mine, live.get(mine).expiringAt(now + leaseNanos));
    return step(live, lastToken, permits, ExtendOutcome.succeeded());
  }

  /** Release of {@code owner}'s live entry; otherwise refused as absent. */
  public ViewStep<PermitEntries, ReleaseOutcome> release(String owner, long now) {
    List<ViewEntry> live = live(now);
    int mine = indexOf(live, owner);
    if (mine < 0) {
      return step(live, lastToken, permits, ReleaseOutcome.absent());
    }
    live.remove(mine);
    return step(live, lastToken, permits, ReleaseOutcome.succeeded());
  }

  /** The live entry that expires first, or empty. */
  public Optional<LeaseRecord> read(long now) {
    List<ViewEntry> live = live(now);
    return live.isEmpty() ? Optional.empty() : Optional.of(first(live).toRecord(now));
  }

  /** The number of entries live at {@code now} (a waiting writer counts). */
  public int liveCount(long now) {
    return live(now).size();
  }

  private static <O> ViewStep<PermitEntries, O> step(
      List<ViewEntry> live, long token, int count, O outcome) {
    return new ViewStep<>(new PermitEntries(live, token, live.isEmpty() ? 0 : count), outcome);
  }

  private List<ViewEntry> live(long now) {
    List<ViewEntry> live = new ArrayList<>(entries.size() + 1);
    for (ViewEntry e : entries) {
      if (e.liveAt(now)) {
        live.add(e);
      }
    }
    return live;
  }

  static int indexOf(List<ViewEntry> entries, String owner) {
    for (int i = 0; i < entries.size(); i++) {
      if (entries.get(i).owner().equals(owner)) {
        return i;
      }
    }
    return -1;
  }

  static ViewEntry first(List<ViewEntry> live) {
    ViewEntry first = live.get(0);
    for (ViewEntry e : live) {
      if (e.expiresBefore(first)) {
        first = e;
      }
    }
    return first;
  }
}
