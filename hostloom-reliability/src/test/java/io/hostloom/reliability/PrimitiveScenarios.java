package io.hostloom.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import io.hostloom.testkit.HistoryReport;
import io.hostloom.testkit.LockEvent;
import io.hostloom.testkit.TestTiming;
import io.hostloom.testkit.rwlock.ReadWriteHistoryChecker;
import io.hostloom.testkit.rwlock.ReadWriteHold;
import io.hostloom.testkit.semaphore.PermitHistoryChecker;
import io.hostloom.testkit.semaphore.PermitHistoryReport;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;

/**
 * The kernel's semaphore and reader-writer lock across JVMs ({@link LockWorker}'s {@code
 * primitives} mode) against a real backend, in one run per backend so that the JVMs start once:
 * four processes loop over a 2-permit semaphore and a reader-writer lock at once. Phases: (1) a
 * permit holder and a write-lock holder are frozen ({@code SIGSTOP}) past their lease until a
 * successor on the same slot / a later writer has written, then resumed: their writes with the old
 * token must be refused by the fenced resource (per slot for permits); (2) a permit holder and a
 * reader-writer holder are killed ({@code kill -9}): the slot / the lock is granted again, but not
 * before the victim's lease ended; (3) the server is crashed and restarted: nothing is granted
 * while it is down and grants resume. The whole run is checked by {@link PermitHistoryChecker}
 * (never more than 2 permits, per-slot exclusion and token order), {@link ReadWriteHistoryChecker}
 * (no write overlapping another hold, write tokens above every earlier grant) and {@link Verdict}
 * over every backend key.
 */
abstract class PrimitiveScenarios extends ScenarioBase {
  static final Duration LEASE = Duration.ofSeconds(2);
  static final int PERMITS = 2;
  private static final Duration OUTAGE = Duration.ofMillis(2500); // > LEASE: see OutageScenarios
  private static final Duration WAIT = Duration.ofSeconds(30);

  /** How long a worker holds a grant, writing every 50 ms; its last write ends the hold. */
  private static final Duration HOLD = Duration.ofMillis(300);

  private static final String LOAD =
      "4 JVMs, each looping over a 2-permit semaphore and a reader-writer lock (1 write in 3);"
          + " lease 2 s, hold 0.3 s, fenced write every 50 ms";

  /** A grant line of a worker: {@code @SGRANT slot token sent seen} or {@code @RGRANT W|R ...}. */
  private record Grant(WorkerProcess worker, String what, long token, long sent, long seen) {}

  @Test
  void semaphoreAndReadWriteLockThroughPauseKillAndOutage() {
    BackendTarget t = target();
    List<WorkerProcess> workers = new ArrayList<>();
    for (int p = 1; p <= 4; p++) {
      Map<String, String> a = workerArgs(t.spec().withTimeout(Duration.ofSeconds(1)), "primitives");
      a.put("permits", Integer.toString(PERMITS));
      a.put("lease", LEASE.toString());
      a.put("hold", HOLD.toString());
      a.put("maxWait", "PT5S");
      a.put("retryStep", "PT0.02S");
      a.put("duration", "PT3M");
      workers.add(worker("p" + p, a));
    }
    workers.forEach(w -> w.await("@READY", START));
    List<String> failures = new ArrayList<>();
    long violations = 0;

    // 1. SIGSTOP a permit holder and a writer past their lease; resume after a successor wrote
    Grant permit = freezeHolding(workers, "@S", "@SGRANT ", null);
    Grant writer = freezeHolding(workers, "@R", "@RGRANT W ", permit.worker());
    long stoppedAt = System.nanoTime();
    String slot = permit.what();
    TestTiming.await(
        "a successor on slot " + slot + " writes",
        () -> acceptedAfter(workers, "@SWRITE " + slot + " ", permit.token()),
        WAIT);
    try {
      TestTiming.await(
          "a later writer writes", () -> acceptedAfter(workers, "@RWRITE ", writer.token()), WAIT);
    } catch (AssertionError e) {
      StringBuilder seen = new StringBuilder("frozen: " + writer + ", " + permit);
      for (WorkerProcess w : workers) {
        List<String> l = w.lines("@R");
        seen.append('\n')
            .append(w)
            .append(": ")
            .append(l.subList(Math.max(0, l.size() - 6), l.size()));
      }
      throw new AssertionError(e.getMessage() + "\n" + seen, e);
    }
    long resumedAt = System.nanoTime();
    permit.worker().resume();
    if (writer.worker() != permit.worker()) {
      writer.worker().resume();
    }
    permit.worker().await("@SEXIT " + slot + " " + permit.token() + " ", WAIT);
    writer.worker().await("@REXIT W " + writer.token() + " ", WAIT);
    long staleSem =
        staleAccepted(permit.worker(), "@SWRITE " + slot + " " + permit.token() + " ", resumedAt);
    long staleRw = staleAccepted(writer.worker(), "@RWRITE " + writer.token() + " ", resumedAt);
    long semRejected =
        rejectedAfter(permit.worker(), "@SWRITE " + slot + " " + permit.token() + " ", resumedAt);
    long rwRejected = rejectedAfter(writer.worker(), "@RWRITE " + writer.token() + " ", resumedAt);
    long pauseViolations =
        staleSem + staleRw + (semRejected > 0 ? 0 : 1) + (rwRejected > 0 ? 0 : 1);
    violations += pauseViolations;
    if (pauseViolations > 0) {
      failures.add(
          "paused holders: stale writes accepted "
              + staleSem
              + " (permit) / "
              + staleRw
              + " (write); rejected after resume "
              + semRejected
              + " / "
              + rwRejected);
    }
    new ScenarioReport(
            "semaphore and rwlock holders paused (SIGSTOP/SIGCONT)",
            t.name(),
            LOAD,
            "SIGSTOP of a permit holder (slot "
                + slot
                + ") and a write-lock holder for "
                + ms(resumedAt - stoppedAt),
            "slot and write lock granted to others while frozen; after SIGCONT the stale writes"
                + " were rejected by the fenced resource ("
                + semRejected
                + " permit, "
                + rwRejected
                + " write); stale writes accepted: "
                + (staleSem + staleRw),
            pauseViolations)
        .publish();

    // 2. kill -9 a permit holder and a reader-writer holder: regranted, never before lease end
    List<WorkerProcess> alive = new ArrayList<>(workers);
    List<String> kills = new ArrayList<>();
    long killViolations = 0;
    for (String[] kind : new String[][] {{"@S", "@SGRANT "}, {"@R", "@RGRANT "}}) {
      Grant victim = freezeHolding(alive, kind[0], kind[1], null);
      long killedAt = System.nanoTime();
      victim.worker().kill();
      alive.remove(victim.worker());
      long leaseEnd = victim.sent() + LEASE.toNanos();
      Predicate<Grant> conflicting =
          kind[0].equals("@S")
              ? g -> g.what().equals(victim.what())
              : g -> victim.what().equals("W") || g.what().equals("W");
      List<Grant> next = new ArrayList<>();
      TestTiming.await(
          "a conflicting grant after killing " + victim,
          () -> {
            next.clear();
            for (WorkerProcess w : alive) {
              grants(w, kind[1]).stream()
                  .filter(g -> g.sent() - killedAt > 0 && conflicting.test(g))
                  .forEach(next::add);
            }
            return !next.isEmpty();
          },
          WAIT);
      Grant first = next.stream().min((a, b) -> Long.compare(a.seen(), b.seen())).orElseThrow();
      boolean early = first.seen() - leaseEnd < 0;
      killViolations += early ? 1 : 0;
      kills.add(
          (kind[0].equals("@S") ? "permit (slot " : "rwlock (")
              + victim.what()
              + ") regranted "
              + ms(first.seen() - killedAt)
              + " after kill -9, "
              + ms(first.seen() - leaseEnd)
              + " after its lease end"
              + (early ? " (EARLY)" : ""));
    }
    violations += killViolations;
    if (killViolations > 0) {
      failures.add("granted before a killed holder's lease ended: " + kills);
    }
    new ScenarioReport(
            "semaphore and rwlock holders killed (kill -9)",
            t.name(),
            LOAD,
            "kill -9 of a permit holder and of a reader-writer holder",
            String.join("; ", kills),
            killViolations)
        .publish();

    // 3. crash and restart the server: no grant while down, grants resume
    if (t instanceof RestartableTarget rt) {
      long down;
      long upBegin;
      long up;
      boolean restarted = false;
      try {
        rt.stopServer(true);
        down = System.nanoTime();
        TestTiming.pass(OUTAGE);
        upBegin = System.nanoTime();
        rt.startServer();
        restarted = true;
        up = System.nanoTime();
      } finally {
        if (!restarted) {
          rt.startServer(); // never leave the server down for the next test
        }
      }
      for (WorkerProcess w : alive) {
        for (String tag : List.of("@SGRANT ", "@RGRANT ")) {
          TestTiming.await(
              w + " is granted again (" + tag.trim() + ") after the restart",
              () -> grants(w, tag).stream().anyMatch(g -> g.sent() - up > 0),
              Duration.ofSeconds(60));
        }
      }
      long falseGrants = 0;
      for (WorkerProcess w : alive) {
        for (LockEvent e : w.events()) {
          if (e.type() == LockEvent.Type.ENTER
              && e.sentNanos() - down > 0
              && e.atNanos() - upBegin < 0) {
            falseGrants++;
          }
        }
      }
      violations += falseGrants;
      if (falseGrants > 0) {
        failures.add(falseGrants + " grants while the server was down");
      }
      new ScenarioReport(
              "semaphore and rwlock through a backend outage",
              t.name(),
              LOAD,
              "server SIGKILLed, down " + OUTAGE.toMillis() + " ms, restarted on the same port",
              "grants while down: "
                  + falseGrants
                  + "; both primitives granted again in every surviving JVM without restart",
              falseGrants)
          .publish();
    }

    // the whole run
    Map<String, Long> sum = new HashMap<>();
    for (WorkerProcess w : alive) {
      w.stop(Duration.ofSeconds(60)).forEach((k, v) -> sum.merge(k, v, Long::sum));
    }
    List<LockEvent> events = history(workers);
    PermitHistoryReport permits =
        PermitHistoryChecker.check(
            events.stream().filter(e -> e.key().contains(":semaphore:pool#")).toList(), PERMITS);
    HistoryReport rw = ReadWriteHistoryChecker.check(holds(workers));
    Verdict keys = Verdict.of(events);
    new ScenarioReport(
            "semaphore and rwlock, whole run",
            t.name(),
            LOAD,
            "the phases above",
            sum.get("grants")
                + " grants counted by the surviving JVMs; permits: "
                + permits.summary()
                + "; rwlock: "
                + rw.summary()
                + "; backend keys: "
                + keys.summary(),
            permits.violations()
                + permits.slots().violationCount()
                + rw.violationCount()
                + keys.violations())
        .publish();
    permits.assertNoViolations();
    rw.assertNoViolations();
    keys.assertNone();
    assertThat(failures).as("phase violations (%s)", violations).isEmpty();
  }

  /**
   * Freezes workers in turn until one is found holding a grant whose lines start with {@code
   * grantTag} (its last grant or exit line of {@code family} is such a grant) and returns it, still
   * frozen; {@code frozen} (if not null) is already frozen and stays so.
   */
  private static Grant freezeHolding(
      List<WorkerProcess> workers, String family, String grantTag, WorkerProcess frozen) {
    long giveUp = System.nanoTime() + TestTiming.scaled(WAIT).toNanos();
    for (int i = 0; System.nanoTime() - giveUp < 0; i++) {
      WorkerProcess w = workers.get(i % workers.size());
      if (w != frozen) {
        w.pause();
        TestTiming.pass(Duration.ofMillis(150)); // let its last printed lines arrive
      }
      List<String> lines =
          w.lines(family).stream()
              .filter(l -> l.startsWith(family + "GRANT ") || l.startsWith(family + "EXIT "))
              .toList();
      String last = lines.isEmpty() ? "" : lines.get(lines.size() - 1);
      if (last.startsWith(grantTag)) {
        long seen = WorkerProcess.number(last, 4);
        // frozen (150 ms ago or more) within its hold, so it writes once more when resumed: a
        // holder frozen after its last write (in its release call) would give nothing to fence
        if (System.nanoTime() - (seen + HOLD.toNanos()) < 0) {
          return grant(w, last);
        }
      }
      if (w != frozen) {
        w.resume();
        TestTiming.pass(Duration.ofMillis(50));
      }
    }
    StringBuilder seen = new StringBuilder();
    for (WorkerProcess w : workers) {
      List<String> l = w.lines(family);
      seen.append('\n')
          .append(w)
          .append(": ")
          .append(l.subList(Math.max(0, l.size() - 8), l.size()));
      seen.append(w.diagnostics());
    }
    throw new AssertionError("no worker found holding " + grantTag + seen);
  }

  private static Grant grant(WorkerProcess w, String line) {
    return new Grant(
        w,
        WorkerProcess.field(line, 1),
        WorkerProcess.number(line, 2),
        WorkerProcess.number(line, 3),
        WorkerProcess.number(line, 4));
  }

  private static List<Grant> grants(WorkerProcess w, String tag) {
    return w.lines(tag).stream().map(l -> grant(w, l)).toList();
  }

  /** Whether some worker's write under {@code prefix} with a token above {@code token} passed. */
  private static boolean acceptedAfter(List<WorkerProcess> workers, String prefix, long token) {
    int tokenField = prefix.startsWith("@SWRITE") ? 2 : 1;
    return workers.stream()
        .flatMap(w -> w.lines(prefix).stream())
        .anyMatch(l -> WorkerProcess.number(l, tokenField) > token && l.contains(" true "));
  }

  private static long staleAccepted(WorkerProcess w, String prefix, long after) {
    return w.lines(prefix).stream()
        .filter(l -> l.contains(" true ") && lastNumber(l) - after > 0)
        .count();
  }

  private static long rejectedAfter(WorkerProcess w, String prefix, long after) {
    return w.lines(prefix).stream()
        .filter(l -> l.contains(" false ") && lastNumber(l) - after > 0)
        .count();
  }

  private static long lastNumber(String line) {
    return Long.parseLong(line.substring(line.lastIndexOf(' ') + 1));
  }

  /** The reader-writer holds of every worker, from their grant and exit lines. */
  private static List<ReadWriteHold> holds(List<WorkerProcess> workers) {
    List<ReadWriteHold> out = new ArrayList<>();
    for (WorkerProcess w : workers) {
      // reads may share a token (a reader takes the live holder's), so one mode and token can
      // stand for several holds of this worker's one reader-writer thread: pair them in order
      Map<String, ArrayDeque<Long>> exits = new HashMap<>();
      for (String l : w.lines("@REXIT ")) {
        exits
            .computeIfAbsent(
                WorkerProcess.field(l, 1) + WorkerProcess.field(l, 2), k -> new ArrayDeque<>())
            .add(lastNumber(l));
      }
      int n = 0;
      for (String l : w.lines("@RGRANT ")) {
        Grant g = grant(w, l);
        long exit =
            Optional.ofNullable(exits.get(g.what() + g.token()))
                .map(ArrayDeque::poll)
                .orElse(Long.MAX_VALUE);
        out.add(
            new ReadWriteHold(
                "rw",
                g.what().equals("W"),
                w.label() + "-" + n++,
                g.token(),
                g.sent(),
                g.seen(),
                g.sent() + LEASE.toNanos(),
                exit));
      }
    }
    return out;
  }
}
