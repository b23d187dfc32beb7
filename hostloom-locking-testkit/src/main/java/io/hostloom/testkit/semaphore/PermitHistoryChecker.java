package io.hostloom.testkit.semaphore;

import io.hostloom.testkit.HistoryChecker;
import io.hostloom.testkit.LockEvent;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Checks the history of one semaphore: never more than {@code permits} permits held at any instant,
 * counting each permit only while its holder was <em>certainly</em> entitled to it, so that it
 * never reports a violation that did not happen.
 *
 * <p>The events are {@link LockEvent}s whose key is the permit's slot (any string unique per slot,
 * e.g. {@code "pool#2"}) and whose holder is unique per permit. A permit counts from when its
 * holder saw the grant ({@code ENTER.atNanos}) until the earlier of its {@code EXIT} and the end of
 * its lease counted from when the last successful acquire or extend was <em>sent</em> ({@code
 * sentNanos + leaseNanos}): the backend applied the command after it was sent, so the real lease
 * lasted at least that long; a holder that died without an {@code EXIT} counts until that lease
 * end. An extension sent before the previous one's answer was seen may have been applied first:
 * then the smaller end is the certain one. An interval is half open: a permit that ends at the
 * instant another starts does not overlap it.
 *
 * <p>The same events are also checked per slot by {@link HistoryChecker} (no two holders of a slot
 * at once, the slot's fencing tokens in grant order, malformed events), reported in {@link
 * PermitHistoryReport#slots()}. Times are {@link System#nanoTime()} values of one host.
 */
public final class PermitHistoryChecker {
  /** At most this many permit-count violations are described; all are counted. */
  public static final int MAX_DESCRIBED = 50;

  private PermitHistoryChecker() {}

  private static final class Interval {
    final String label;
    final long start;
    long leaseEnd;
    long lastSeen;
    long exit = Long.MAX_VALUE;

    Interval(LockEvent enter) {
      label = enter.holder() + "@" + enter.key();
      start = enter.atNanos();
      leaseEnd = enter.sentNanos() + enter.leaseNanos();
      lastSeen = enter.atNanos();
    }

    void extendedBy(LockEvent e) {
      long end = e.sentNanos() + e.leaseNanos();
      boolean after = e.sentNanos() - lastSeen >= 0;
      leaseEnd = after ? end : Math.min(leaseEnd, end);
      lastSeen = after ? e.atNanos() : Math.max(lastSeen, e.atNanos());
    }

    long end() {
      return Math.min(exit, leaseEnd);
    }
  }

  private record Id(String key, String holder, long token) {}

  private record Edge(long at, int delta, Interval of) {}

  /**
   * Checks {@code events} (any order) against {@code permits}.
   *
   * @throws IllegalArgumentException when {@code permits} is not positive
   */
  public static PermitHistoryReport check(Collection<LockEvent> events, int permits) {
    Objects.requireNonNull(events, "events");
    if (permits <= 0) {
      throw new IllegalArgumentException("permits must be positive but was " + permits);
    }
    Map<Id, Interval> holds = new LinkedHashMap<>();
    List<LockEvent> sorted = new ArrayList<>(events);
    sorted.sort(
        Comparator.comparing((LockEvent e) -> e.type() != LockEvent.Type.ENTER)
            .thenComparingLong(LockEvent::atNanos));
    for (LockEvent e : sorted) {
      Id id = new Id(e.key(), e.holder(), e.fencingToken());
      Interval h = holds.get(id);
      switch (e.type()) {
        case ENTER, EXTEND -> {
          if (h == null && e.type() == LockEvent.Type.ENTER) {
            holds.put(id, new Interval(e));
          } else if (h != null) {
            h.extendedBy(e);
          }
        }
        case EXIT -> {
          if (h != null) {
            h.exit = Math.min(h.exit, e.atNanos());
          }
        }
      }
      // events without their ENTER are reported as malformed by the per-slot check
    }
    List<Edge> edges = new ArrayList<>();
    for (Interval h : holds.values()) {
      if (h.end() - h.start > 0) {
        edges.add(new Edge(h.start, 1, h));
        edges.add(new Edge(h.end(), -1, h));
      }
    }
    // ends before starts at one instant: half-open intervals
    edges.sort(Comparator.comparingLong(Edge::at).thenComparingInt(Edge::delta));
    List<Interval> live = new ArrayList<>();
    int maxHeld = 0;
    long violations = 0;
    List<String> described = new ArrayList<>();
    for (Edge e : edges) {
      if (e.delta() < 0) {
        live.remove(e.of());
        continue;
      }
      live.add(e.of());
      maxHeld = Math.max(maxHeld, live.size());
      if (live.size() == permits + 1) { // entering an excursion above the count: report it once
        violations++;
        if (described.size() < MAX_DESCRIBED) {
          described.add(
              (permits + 1)
                  + " permits held at once (of "
                  + permits
                  + ") when "
                  + e.of().label
                  + " was granted: "
                  + live.stream().map(i -> i.label).toList());
        }
      }
    }
    return new PermitHistoryReport(
        permits, holds.size(), maxHeld, violations, described, HistoryChecker.check(events));
  }
}
