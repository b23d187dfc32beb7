package io.hostloom.testkit.wopi;

import io.hostloom.testkit.wopi.WopiHistory.Op;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.Comparator;
import java.util.Deque;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Decides whether a {@link WopiHistory} is linearizable against the {@link WopiLockModel}: whether
 * every request can be given one instant between its invoke and its completion at which it took
 * effect atomically, so that the answers are those of the sequential model. Requests without an
 * answer may take effect at any instant after their invoke, or never.
 *
 * <p>The search is Wing and Gong's, with Lowe's memoization (as in Knossos and Porcupine): walk the
 * invoke/completion events in time order, try to linearize each pending request next, backtrack at
 * a completion whose request was not linearized yet, and never revisit a (set of linearized
 * requests, model state) pair. Files are independent (a lock's history is local to its file), so
 * each file is checked on its own. Events at the same instant are taken as concurrent (invokes
 * first), so equal timestamps never produce a false violation.
 *
 * <p><b>Cost.</b> Linear in the history for few concurrent clients, exponential in the number of
 * requests pending at once in the worst case: keep clients to a handful and lock ids to a few. The
 * search stops after {@code maxSteps} and then reports the history undecided (a test should treat
 * that as a failure of the test setup, not of the store).
 */
public final class WopiLinearizabilityChecker {
  /** The default bound on search steps per file. */
  public static final long DEFAULT_MAX_STEPS = 20_000_000L;

  /** The verdict: linearizable, not linearizable (with an explanation), or undecided. */
  public enum Verdict {
    LINEARIZABLE,
    NOT_LINEARIZABLE,
    UNDECIDED
  }

  /**
   * The result of a check.
   *
   * @param verdict the verdict over all files (the worst file's)
   * @param ops how many requests were checked
   * @param steps search steps taken, over all files
   * @param explanation empty when linearizable; otherwise the file, the longest linearizable prefix
   *     found and the requests none of which could come next
   */
  public record Result(Verdict verdict, int ops, long steps, String explanation) {
    public boolean linearizable() {
      return verdict == Verdict.LINEARIZABLE;
    }
  }

  private WopiLinearizabilityChecker() {}

  public static Result check(List<Op> history) {
    return check(history, DEFAULT_MAX_STEPS);
  }

  public static Result check(List<Op> history, long maxSteps) {
    Map<String, List<Op>> byFile = new LinkedHashMap<>();
    for (Op op : history) {
      byFile.computeIfAbsent(op.fileId(), f -> new ArrayList<>()).add(op);
    }
    long steps = 0;
    for (Map.Entry<String, List<Op>> e : byFile.entrySet()) {
      FileSearch s = new FileSearch(e.getValue(), maxSteps);
      Verdict v = s.run();
      steps += s.steps;
      if (v != Verdict.LINEARIZABLE) {
        return new Result(v, history.size(), steps, s.explain(e.getKey(), v));
      }
    }
    return new Result(Verdict.LINEARIZABLE, history.size(), steps, "");
  }

  /** One event of the doubly linked event list: an op's invoke or its completion. */
  private static final class Event {
    final Op op;
    final int index; // the op's index in this file's list
    final boolean invoke;
    Event match; // the invoke's completion, and back
    Event prev;
    Event next;

    Event(Op op, int index, boolean invoke) {
      this.op = op;
      this.index = index;
      this.invoke = invoke;
    }
  }

  private record Memo(BitSet linearized, String state) {}

  private record Frame(Event invoke, String stateBefore) {}

  private static final class FileSearch {
    final List<Op> ops;
    final long maxSteps;
    final Event head = new Event(null, -1, false);
    long steps;
    List<Op> bestPrefix = List.of();
    String bestState;
    Set<Op> bestStuck = Set.of();

    FileSearch(List<Op> ops, long maxSteps) {
      this.ops = ops;
      this.maxSteps = maxSteps;
    }

    Verdict run() {
      List<Event> events = new ArrayList<>();
      for (int i = 0; i < ops.size(); i++) {
        Op op = ops.get(i);
        Event in = new Event(op, i, true);
        Event out = new Event(op, i, false);
        in.match = out;
        out.match = in;
        events.add(in);
        events.add(out);
      }
      events.sort(
          Comparator.comparingLong((Event e) -> e.invoke ? e.op.invokedAt() : e.op.completedAt())
              .thenComparing(e -> !e.invoke));
      Event last = head;
      for (Event e : events) {
        last.next = e;
        e.prev = last;
        last = e;
      }
      BitSet linearized = new BitSet(ops.size());
      Set<Memo> seen = new HashSet<>();
      Deque<Frame> stack = new ArrayDeque<>();
      String state = null;
      Event entry = head.next;
      while (head.next != null) {
        if (++steps > maxSteps) {
          return Verdict.UNDECIDED;
        }
        if (entry.invoke) {
          Op op = entry.op;
          if (WopiLockModel.answers(state, op)) {
            String after = WopiLockModel.next(state, op.request());
            BitSet next = (BitSet) linearized.clone();
            next.set(entry.index);
            if (seen.add(new Memo(next, after))) {
              stack.push(new Frame(entry, state));
              state = after;
              linearized = next;
              lift(entry);
              entry = head.next;
              continue;
            }
          }
          entry = entry.next;
        } else {
          remember(stack, state, entry);
          if (stack.isEmpty()) {
            return Verdict.NOT_LINEARIZABLE;
          }
          Frame f = stack.pop();
          state = f.stateBefore;
          linearized = (BitSet) linearized.clone();
          linearized.clear(f.invoke.index);
          unlift(f.invoke);
          entry = f.invoke.next;
        }
      }
      return Verdict.LINEARIZABLE;
    }

    /** Keeps the deepest dead end for the explanation. */
    private void remember(Deque<Frame> stack, String state, Event blockedAt) {
      if (stack.size() < bestPrefix.size()) {
        return;
      }
      List<Op> prefix = new ArrayList<>();
      stack.descendingIterator().forEachRemaining(f -> prefix.add(f.invoke.op));
      Set<Op> stuck = new TreeSet<>(Comparator.comparingInt(Op::id));
      for (Event e = head.next; e != null && e != blockedAt.next; e = e.next) {
        if (e.invoke) {
          stuck.add(e.op);
        }
      }
      bestPrefix = prefix;
      bestState = state;
      bestStuck = stuck;
    }

    String explain(String fileId, Verdict v) {
      if (v == Verdict.UNDECIDED) {
        return "file "
            + fileId
            + ": search stopped after "
            + maxSteps
            + " steps ("
            + ops.size()
            + " requests); use fewer clients, lock ids or requests";
      }
      StringBuilder b = new StringBuilder("file ").append(fileId).append(": ");
      b.append(ops.size())
          .append(" requests; longest linearizable prefix (")
          .append(bestPrefix.size())
          .append("), last ")
          .append(Math.min(8, bestPrefix.size()))
          .append(":\n");
      for (Op op : bestPrefix.subList(Math.max(0, bestPrefix.size() - 8), bestPrefix.size())) {
        b.append("  ").append(op).append('\n');
      }
      b.append("then the lock is ")
          .append(bestState == null ? "(none)" : bestState)
          .append(" and none of these can come next:\n");
      for (Op op : bestStuck) {
        b.append("  ").append(op).append('\n');
      }
      return b.toString();
    }
  }

  private static void lift(Event invoke) {
    invoke.prev.next = invoke.next;
    invoke.next.prev = invoke.prev;
    Event out = invoke.match;
    out.prev.next = out.next;
    if (out.next != null) {
      out.next.prev = out.prev;
    }
  }

  private static void unlift(Event invoke) {
    Event out = invoke.match;
    out.prev.next = out;
    if (out.next != null) {
      out.next.prev = out;
    }
    invoke.prev.next = invoke;
    invoke.next.prev = invoke;
  }
}
