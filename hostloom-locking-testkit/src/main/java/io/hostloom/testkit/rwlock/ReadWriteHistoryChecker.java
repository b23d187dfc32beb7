package io.hostloom.testkit.rwlock;

import io.hostloom.testkit.HistoryReport;
import io.hostloom.testkit.HistoryReport.Kind;
import io.hostloom.testkit.HistoryReport.Violation;
import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Checks a reader-writer history (from {@link ReadWriteHistory} or built by hand) for the safety
 * properties of {@code DistributedReadWriteLock}, from what the holders observed only, so that it
 * never reports what did not happen:
 *
 * <ul>
 *   <li><b>{@link Kind#OVERLAP}</b>: a write hold's interval (grant seen until the earlier of exit
 *       and lease end, see {@link ReadWriteHold}) intersects another hold's interval on the same
 *       name, read or write. Reads may overlap each other.
 *   <li><b>{@link Kind#TOKEN_ORDER}</b>: a write whose acquisition was sent after another hold's
 *       grant was seen (so that grant certainly came first) got a token not larger than that
 *       hold's; two writes share a token; or a read sent after a write's grant was seen got a
 *       smaller token than that write.
 * </ul>
 */
public final class ReadWriteHistoryChecker {
  /** At most this many violations are described; all are counted. */
  public static final int MAX_DESCRIBED = 50;

  private ReadWriteHistoryChecker() {}

  /** Checks {@code holds} (any order). */
  public static HistoryReport check(Collection<ReadWriteHold> holds) {
    Objects.requireNonNull(holds, "holds");
    Map<String, List<ReadWriteHold>> byKey = new LinkedHashMap<>();
    for (ReadWriteHold h : holds) {
      byKey.computeIfAbsent(h.key(), k -> new ArrayList<>()).add(h);
    }
    List<Violation> found = new ArrayList<>();
    for (List<ReadWriteHold> keyHolds : byKey.values()) {
      check(keyHolds, found);
    }
    Map<Kind, Long> byKind = new EnumMap<>(Kind.class);
    found.forEach(f -> byKind.merge(f.kind(), 1L, Long::sum));
    return new HistoryReport(
        holds.size(),
        holds.size(),
        byKey.size(),
        found.size(),
        found.subList(0, Math.min(found.size(), MAX_DESCRIBED)),
        byKind);
  }

  private static void check(List<ReadWriteHold> hs, List<Violation> v) {
    for (int i = 0; i < hs.size(); i++) {
      ReadWriteHold a = hs.get(i);
      for (int j = 0; j < hs.size(); j++) {
        ReadWriteHold b = hs.get(j);
        if (i == j) {
          continue;
        }
        if (a.write() && (j > i || !b.write()) && overlap(a, b)) {
          v.add(
              new Violation(
                  Kind.OVERLAP,
                  a.key(),
                  a + " and " + b + " held at once for " + overlapNanos(a, b) + " ns"));
        }
        if (a.write() && b.write() && j > i && a.fencingToken() == b.fencingToken()) {
          v.add(
              new Violation(Kind.TOKEN_ORDER, a.key(), a + " and " + b + " share a fencing token"));
        }
        boolean bFirst = b.grantedNanos() - a.sentNanos() < 0;
        if (a.write() && bFirst && b.fencingToken() >= a.fencingToken()) {
          v.add(
              new Violation(
                  Kind.TOKEN_ORDER,
                  a.key(),
                  a + " was requested after " + b + " was granted but its token is not larger"));
        }
        if (!a.write() && b.write() && bFirst && a.fencingToken() < b.fencingToken()) {
          v.add(
              new Violation(
                  Kind.TOKEN_ORDER,
                  a.key(),
                  a + " was requested after " + b + " was granted but its token is smaller"));
        }
      }
    }
  }

  private static boolean overlap(ReadWriteHold a, ReadWriteHold b) {
    return a.nonEmpty() && b.nonEmpty() && overlapNanos(a, b) > 0;
  }

  private static long overlapNanos(ReadWriteHold a, ReadWriteHold b) {
    long start = a.grantedNanos() - b.grantedNanos() > 0 ? a.grantedNanos() : b.grantedNanos();
    long end = a.endNanos() - b.endNanos() < 0 ? a.endNanos() : b.endNanos();
    return end - start;
  }
}
