package io.hostloom.reliability;

import io.hostloom.testkit.LockEvent;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A fencing check stronger than {@link io.hostloom.testkit.HistoryChecker}'s token rule, still
 * using only what holders observed: <b>grants seen in a given order carry increasing tokens</b>.
 *
 * <p>Why that is sound: let holder B see its grant before holder A sees its own, A's reply having
 * come within A's lease ({@code A.at - A.sent < lease}; the kernel rejects later ones), and A not
 * released before its grant was seen. The server granted B at some {@code tB <= B.at} and A at some
 * {@code tA} in {@code [A.sent, A.at]}. If {@code tA < tB}, A's lease was still live at {@code tB}
 * (it lasts until {@code A.sent + lease > A.at > tB} at least, and A's release was sent after
 * {@code A.at}), so B was granted over a live lease: exclusion broken. Otherwise B was granted
 * first, and A's token must be larger. So {@code A.token < B.token} is a violation either way, even
 * when the observed holds do not overlap and A's acquire was sent before B's grant was seen, which
 * is where the history checker (rightly, for its weaker premises) stays silent.
 */
final class GrantOrderCheck {
  /** Suffix of a holder label whose release was sent before its grant arrived. */
  static final String RELEASED_EARLY = "-released-early";

  private GrantOrderCheck() {}

  private record Grant(String holder, long token, long sent, long at, long lease) {}

  /** Descriptions of every inversion found (empty when none). */
  static List<String> inversions(Collection<LockEvent> events) {
    Map<String, List<Grant>> byKey = new HashMap<>();
    for (LockEvent e : events) {
      if (e.type() == LockEvent.Type.ENTER) {
        byKey
            .computeIfAbsent(e.key(), k -> new ArrayList<>())
            .add(
                new Grant(
                    e.holder(), e.fencingToken(), e.sentNanos(), e.atNanos(), e.leaseNanos()));
      }
    }
    List<String> out = new ArrayList<>();
    for (Map.Entry<String, List<Grant>> entry : byKey.entrySet()) {
      List<Grant> grants = entry.getValue();
      grants.sort(Comparator.comparingLong(Grant::at));
      Grant max = null; // the largest token among grants seen strictly earlier
      int i = 0;
      while (i < grants.size()) {
        int j = i;
        while (j < grants.size() && grants.get(j).at() == grants.get(i).at()) {
          j++; // grants seen at the same instant are not ordered
        }
        for (int k = i; k < j; k++) {
          Grant a = grants.get(k);
          boolean accepted = a.at() - a.sent() < a.lease();
          if (max != null
              && accepted
              && !a.holder().endsWith(RELEASED_EARLY)
              && a.token() < max.token()) {
            out.add(
                entry.getKey()
                    + ": "
                    + a.holder()
                    + " (token "
                    + a.token()
                    + ") saw its grant "
                    + (a.at() - max.at()) / 1000
                    + " us after "
                    + max.holder()
                    + " (token "
                    + max.token()
                    + ") saw its own; sent "
                    + (max.sent() - a.sent()) / 1000
                    + " us before it");
          }
        }
        for (int k = i; k < j; k++) {
          if (max == null || grants.get(k).token() > max.token()) {
            max = grants.get(k);
          }
        }
        i = j;
      }
    }
    return out;
  }
}
