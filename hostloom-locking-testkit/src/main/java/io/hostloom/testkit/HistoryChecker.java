package io.hostloom.testkit;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Checks a lock history (from one {@link LockHistory} or merged ledgers) for the safety properties
 * of a lock service (exclusion and fencing-token order), using only what the holders observed, so
 * that it never reports a violation that did not happen:
 *
 * <ul>
 *   <li><b>No overlapping holds</b> on a key while leases are valid. Each hold counts from when its
 *       holder saw the grant until the earlier of its exit and {@code sent + lease} of its last
 *       successful acquire or extend (the backend applied the command after it was sent, so the
 *       real lease lasts at least that long; a later extension replaces the lease end, also when it
 *       shortens it, as a minimum hold kept on close does). Two such intervals on one key must not
 *       intersect.
 *   <li><b>Fencing tokens strictly increase</b> per key: when hold A's grant was seen before hold
 *       B's acquire was sent, A's grant certainly came first, so A's token must be smaller than
 *       B's. Two different holds never share a token.
 *   <li><b>Grants seen in a given order carry increasing tokens</b> per key ({@link
 *       HistoryReport.Kind#GRANT_ORDER}), also when the later one was sent before the earlier one
 *       was seen, provided the later holder A heard its grant within its lease ({@code A.at -
 *       A.sent < lease}; the lock kernel rejects later replies) and did not exit before seeing it.
 *       Why that is sound: let B see its grant before A sees its own. The server granted B at some
 *       {@code tB <= B.at} and A at some {@code tA} in {@code [A.sent, A.at]}. If {@code tA < tB},
 *       A's lease was still live at {@code tB} (it lasts at least until {@code A.sent + lease >
 *       A.at > tB}, and A's release was sent after {@code A.at}), so B was granted over a live
 *       lease: exclusion broken. Otherwise B was granted first, and A's token must be larger. So
 *       {@code A.token < B.token} is a violation either way, even when the observed holds do not
 *       overlap and the rule above stays silent (it found PostgreSQL tokens drawn before the grant
 *       was decided). Grants seen at the same instant are not ordered.
 * </ul>
 *
 * <p>Malformed histories (an EXTEND or EXIT without its ENTER, two ENTERs of one hold with
 * different keys) are reported too. Times are {@link System#nanoTime()} values: merged ledgers must
 * come from one host.
 */
public final class HistoryChecker {
  /** At most this many violations are described in a report; all are counted. */
  public static final int MAX_DESCRIBED = 50;

  private HistoryChecker() {}

  private static final class Hold {
    final String key;
    final String holder;
    final long token;
    final long sent;
    final long start;
    final long firstLease;
    long leaseEnd;
    long lastSeen; // when the reply of the acquire or extend that set leaseEnd was seen
    long exit = Long.MAX_VALUE;

    Hold(LockEvent enter) {
      key = enter.key();
      holder = enter.holder();
      token = enter.fencingToken();
      sent = enter.sentNanos();
      start = enter.atNanos();
      firstLease = enter.leaseNanos();
      leaseEnd = enter.sentNanos() + enter.leaseNanos();
      lastSeen = enter.atNanos();
    }

    /**
     * A successful same-owner acquire or extend: the backend set the lease to {@code lease} from
     * when it applied the call, replacing the lease end before, also when shorter (a minimum hold
     * kept on close sets the remainder). Sent after the previous reply was seen, it was applied
     * after it: its bound replaces. Sent while the previous call was still out, either may have
     * been applied last: the smaller bound is the one that certainly holds.
     */
    void renewed(LockEvent e) {
      long end = e.sentNanos() + e.leaseNanos();
      if (e.sentNanos() - lastSeen >= 0) {
        leaseEnd = end;
        lastSeen = e.atNanos();
      } else {
        leaseEnd = Math.min(leaseEnd, end);
        lastSeen = Math.max(lastSeen, e.atNanos());
      }
    }

    long end() {
      return Math.min(exit, leaseEnd);
    }

    boolean nonEmpty() {
      return end() - start > 0;
    }

    /** Whether the holder relied on its grant: heard within the lease, no exit before it. */
    boolean relied() {
      return start - sent < firstLease && exit - start >= 0;
    }

    @Override
    public String toString() {
      return holder + "(token " + token + ")";
    }
  }

  private record HoldId(String key, String holder, long token) {}

  /** Checks {@code events} (any order). */
  public static HistoryReport check(Collection<LockEvent> events) {
    Objects.requireNonNull(events, "events");
    Violations violations = new Violations();
    Map<HoldId, Hold> holds = new LinkedHashMap<>();
    List<LockEvent> sorted = new ArrayList<>(events);
    // ENTERs first so that an EXIT recorded by another thread before its ENTER still matches
    sorted.sort(
        Comparator.comparing((LockEvent e) -> e.type() != LockEvent.Type.ENTER)
            .thenComparingLong(LockEvent::atNanos));
    for (LockEvent e : sorted) {
      HoldId id = new HoldId(e.key(), e.holder(), e.fencingToken());
      Hold h = holds.get(id);
      switch (e.type()) {
        case ENTER -> {
          if (h == null) {
            holds.put(id, new Hold(e));
          } else {
            h.renewed(e);
          }
        }
        case EXTEND -> {
          if (h == null) {
            violations.add(HistoryReport.Kind.MALFORMED, e.key(), "EXTEND without ENTER: " + e);
          } else {
            h.renewed(e);
          }
        }
        case EXIT -> {
          if (h == null) {
            violations.add(HistoryReport.Kind.MALFORMED, e.key(), "EXIT without ENTER: " + e);
          } else {
            h.exit = Math.min(h.exit, e.atNanos());
          }
        }
      }
    }
    Map<String, List<Hold>> byKey = new HashMap<>();
    for (Hold h : holds.values()) {
      byKey.computeIfAbsent(h.key, k -> new ArrayList<>()).add(h);
    }
    for (List<Hold> keyHolds : byKey.values()) {
      checkOverlap(keyHolds, violations);
      checkTokens(keyHolds, violations);
    }
    return new HistoryReport(
        events.size(),
        holds.size(),
        byKey.size(),
        violations.count,
        violations.described,
        violations.byKind);
  }

  private static void checkOverlap(List<Hold> keyHolds, Violations violations) {
    List<Hold> live = new ArrayList<>();
    for (Hold h : keyHolds) {
      if (h.nonEmpty()) {
        live.add(h);
      }
    }
    live.sort(Comparator.comparingLong((Hold h) -> h.start));
    Hold latest = null; // the hold whose interval reaches furthest so far
    for (Hold h : live) {
      if (latest != null && latest.end() - h.start > 0) {
        violations.add(
            HistoryReport.Kind.OVERLAP,
            h.key,
            h
                + " was granted "
                + (latest.end() - h.start)
                + " ns before "
                + latest
                + " stopped holding");
      }
      if (latest == null || h.end() - latest.end() > 0) {
        latest = h;
      }
    }
  }

  private static void checkTokens(List<Hold> keyHolds, Violations violations) {
    Map<Long, Hold> byToken = new HashMap<>();
    for (Hold h : keyHolds) {
      Hold other = byToken.putIfAbsent(h.token, h);
      if (other != null) {
        violations.add(
            HistoryReport.Kind.TOKEN_ORDER, h.key, h + " and " + other + " share a fencing token");
      }
    }
    List<Hold> bySeen = new ArrayList<>(keyHolds);
    bySeen.sort(Comparator.comparingLong((Hold h) -> h.start));
    List<Hold> bySent = new ArrayList<>(keyHolds);
    bySent.sort(Comparator.comparingLong((Hold h) -> h.sent));
    Set<Hold> reported = Collections.newSetFromMap(new IdentityHashMap<>());
    int i = 0;
    Hold maxBefore = null; // the largest token among grants seen before the current send
    for (Hold b : bySent) {
      while (i < bySeen.size() && bySeen.get(i).start - b.sent < 0) {
        maxBefore = larger(maxBefore, bySeen.get(i++));
      }
      if (maxBefore != null && maxBefore.token > b.token) { // equal tokens are reported above
        reported.add(b);
        violations.add(
            HistoryReport.Kind.TOKEN_ORDER,
            b.key,
            b + " was requested after " + maxBefore + " was granted but got a smaller token");
      }
    }
    checkGrantOrder(bySeen, reported, violations);
  }

  /** Holds already reported by the send-order rule are not reported again. */
  private static void checkGrantOrder(
      List<Hold> bySeen, Set<Hold> reported, Violations violations) {
    Hold maxSeen = null; // the largest token among grants seen strictly earlier
    int i = 0;
    while (i < bySeen.size()) {
      int j = i;
      while (j < bySeen.size() && bySeen.get(j).start == bySeen.get(i).start) {
        j++;
      }
      for (int k = i; k < j; k++) {
        Hold a = bySeen.get(k);
        if (maxSeen != null && maxSeen.token > a.token && a.relied() && !reported.contains(a)) {
          violations.add(
              HistoryReport.Kind.GRANT_ORDER,
              a.key,
              a
                  + " saw its grant "
                  + (a.start - maxSeen.start)
                  + " ns after "
                  + maxSeen
                  + " saw its own (requested "
                  + (maxSeen.sent - a.sent)
                  + " ns before it) but got a smaller token");
        }
      }
      for (int k = i; k < j; k++) {
        maxSeen = larger(maxSeen, bySeen.get(k));
      }
      i = j;
    }
  }

  private static Hold larger(Hold max, Hold h) {
    return max == null || h.token > max.token ? h : max;
  }

  private static final class Violations {
    long count;
    final List<HistoryReport.Violation> described = new ArrayList<>();
    final Map<HistoryReport.Kind, Long> byKind = new EnumMap<>(HistoryReport.Kind.class);

    void add(HistoryReport.Kind kind, String key, String description) {
      count++;
      byKind.merge(kind, 1L, Long::sum);
      if (described.size() < MAX_DESCRIBED) {
        described.add(new HistoryReport.Violation(kind, key, description));
      }
    }
  }
}
