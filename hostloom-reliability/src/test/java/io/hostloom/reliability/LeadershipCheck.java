package io.hostloom.reliability;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Checks leader-election runs from what each process believed: every term is a window from its
 * {@code ACQUIRED} to the change that ended it (or the moment the process was killed, or the end of
 * the run). Rules: at most one window per term; terms strictly increase in the order the windows
 * started; two windows overlap by at most one lease, except after a window whose process was frozen
 * (SIGSTOP: it cannot act while frozen, and what it does after resuming is for the fenced resource
 * to refuse, which the scenario checks separately).
 */
final class LeadershipCheck {
  private LeadershipCheck() {}

  /** One term as one process saw it. */
  record Window(String worker, long term, long start, long end, boolean frozen) {}

  /**
   * The windows of one worker from its {@code @CHANGE} lines; an open window ends at {@code
   * openEnd} (kill time or end of run).
   */
  static List<Window> windows(String worker, List<String> changeLines, long openEnd) {
    List<Window> out = new ArrayList<>();
    long term = -1;
    long start = 0;
    for (String line : changeLines) {
      String type = WorkerProcess.field(line, 1);
      long t = WorkerProcess.number(line, 2);
      long at = WorkerProcess.number(line, 3);
      if (type.equals("ACQUIRED")) {
        term = t;
        start = at;
      } else if (term >= 0) {
        out.add(new Window(worker, term, start, at, false));
        term = -1;
      }
    }
    if (term >= 0) {
      out.add(new Window(worker, term, start, openEnd, false));
    }
    return out;
  }

  /** Every violation of the rules, described; empty when the run is clean. */
  static List<String> violations(List<Window> all, Duration lease) {
    List<String> v = new ArrayList<>();
    Map<Long, Window> byTerm = new HashMap<>();
    for (Window w : all) {
      Window other = byTerm.putIfAbsent(w.term(), w);
      if (other != null) {
        v.add("term " + w.term() + " led twice: by " + other.worker() + " and " + w.worker());
      }
    }
    List<Window> ordered = new ArrayList<>(all);
    ordered.sort(Comparator.comparingLong(Window::start));
    for (int i = 1; i < ordered.size(); i++) {
      Window a = ordered.get(i - 1);
      Window b = ordered.get(i);
      if (b.term() <= a.term()) {
        v.add("term " + b.term() + " (" + b.worker() + ") started after term " + a.term());
      }
    }
    for (int i = 0; i < ordered.size(); i++) {
      for (int j = i + 1; j < ordered.size(); j++) {
        Window a = ordered.get(i);
        Window b = ordered.get(j);
        long overlap = Math.min(a.end(), b.end()) - b.start();
        if (!a.frozen() && overlap > lease.toNanos()) {
          v.add(
              a.worker()
                  + " (term "
                  + a.term()
                  + ") and "
                  + b.worker()
                  + " (term "
                  + b.term()
                  + ") both believed they led for "
                  + ScenarioBase.ms(overlap)
                  + ", more than one lease");
        }
      }
    }
    return v;
  }

  /** The largest overlap of two windows, for the report. */
  static long maxOverlapNanos(List<Window> all) {
    long max = 0;
    for (Window a : all) {
      for (Window b : all) {
        if (a != b && a.start() <= b.start()) {
          max = Math.max(max, Math.min(a.end(), b.end()) - b.start());
        }
      }
    }
    return max;
  }
}
