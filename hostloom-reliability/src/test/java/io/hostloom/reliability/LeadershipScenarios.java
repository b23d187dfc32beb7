package io.hostloom.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import io.hostloom.reliability.LeadershipCheck.Window;
import io.hostloom.testkit.LockEvent;
import io.hostloom.testkit.TestTiming;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Leader election across JVMs ({@code hostloom-leadership}'s {@code LeaderElector} in {@link
 * LockWorker}'s {@code elect} mode) against a real backend, in one run per backend so that the JVMs
 * start once: four processes elect one role; the leader is frozen ({@code SIGSTOP}) until a
 * successor leads, then resumed; the successor is killed ({@code kill -9}); on a backend the test
 * can restart, the server is crashed and restarted. Each phase publishes a report row; the whole
 * run is checked by {@link LeadershipCheck} (one leader per term, increasing terms, bounded
 * overlap) and by {@link Verdict} over the ledgers (no two valid leases at once on the backend).
 */
abstract class LeadershipScenarios extends ScenarioBase {
  static final Duration LEASE = Duration.ofSeconds(2);
  static final String ROLE = "rel-role";
  static final String BACKEND_KEY = "rel:lock:leader:" + ROLE;
  private static final Duration WAIT = Duration.ofSeconds(30);
  private static final String LOAD =
      "4 JVMs electing one role; lease 2 s, renew 0.5 s, retry 0.25 s + 0.1 s jitter; leader writes its term every 50 ms";

  /** One {@code ACQUIRED} seen by the test. */
  private record Grant(WorkerProcess worker, long term, long at) {}

  @Test
  void oneLeaderAtATimeThroughPauseKillAndOutage() {
    BackendTarget t = target();
    List<WorkerProcess> workers = new ArrayList<>();
    long startedAt = System.nanoTime();
    for (int p = 1; p <= 4; p++) {
      Map<String, String> a = workerArgs(t.spec(), "elect");
      a.put("role", ROLE);
      a.put("lease", LEASE.toString());
      a.put("renewInterval", "PT0.5S");
      a.put("retryInterval", "PT0.25S");
      a.put("jitter", "PT0.1S");
      a.put("duration", "PT3M");
      workers.add(worker("e" + p, a));
    }
    workers.forEach(w -> w.await("@READY", START));
    List<String> failures = new ArrayList<>();
    long violations = 0;

    // 1. SIGSTOP the leader until a successor leads, then SIGCONT
    Grant first = awaitGrantAfter(workers, startedAt);
    TestTiming.await(() -> !writes(first.worker(), first.term()).isEmpty(), WAIT);
    long stoppedAt = System.nanoTime();
    first.worker().pause();
    Grant second = awaitGrantAfter(others(workers, first.worker()), stoppedAt);
    TestTiming.await(
        () -> writes(second.worker(), second.term()).stream().anyMatch(l -> l.contains(" true ")),
        WAIT);
    long resumedAt = System.nanoTime();
    first.worker().resume();
    String lost = first.worker().await("@CHANGE LOST " + first.term() + " ", WAIT);
    String late = first.worker().await("@LATEWRITE " + first.term() + " ", WAIT);
    long staleAccepted =
        writes(first.worker(), first.term()).stream()
            .filter(l -> WorkerProcess.number(l, 3) > resumedAt && l.contains(" true "))
            .count();
    boolean lateRejected = WorkerProcess.field(late, 2).equals("false");
    long pauseViolations =
        staleAccepted + (lateRejected ? 0 : 1) + (second.term() > first.term() ? 0 : 1);
    violations += pauseViolations;
    if (pauseViolations > 0) {
      failures.add("paused leader: stale writes accepted " + staleAccepted + ", " + late);
    }
    new ScenarioReport(
            "leader paused (SIGSTOP/SIGCONT)",
            t.name(),
            LOAD,
            "SIGSTOP of the leader for " + ScenarioBase.ms(resumedAt - stoppedAt),
            "successor (term "
                + first.term()
                + " -> "
                + second.term()
                + ") led "
                + ScenarioBase.ms(second.at() - stoppedAt)
                + " after the stop; the resumed leader reported LOST ("
                + WorkerProcess.field(lost, 4)
                + ") "
                + ScenarioBase.ms(WorkerProcess.number(lost, 3) - resumedAt)
                + " after SIGCONT; its write with the old term was "
                + (lateRejected ? "rejected" : "ACCEPTED")
                + " by the fenced resource; stale writes accepted: "
                + staleAccepted,
            pauseViolations)
        .publish();

    // 2. kill -9 the leader: the successor leads only after the victim's lease ended
    assertThat(lastChange(second.worker())).startsWith("@CHANGE ACQUIRED " + second.term() + " ");
    long killedAt = System.nanoTime();
    second.worker().kill();
    List<WorkerProcess> alive = others(workers, second.worker());
    Grant third = awaitGrantAfter(alive, killedAt);
    long lastSent =
        second.worker().events().stream()
            .filter(e -> e.key().equals(BACKEND_KEY) && e.type() != LockEvent.Type.EXIT)
            .mapToLong(LockEvent::sentNanos)
            .max()
            .orElseThrow();
    LockEvent successor =
        third.worker().events().stream()
            .filter(e -> e.key().equals(BACKEND_KEY) && e.type() == LockEvent.Type.ENTER)
            .filter(e -> e.fencingToken() == third.term())
            .findFirst()
            .orElseThrow(() -> new AssertionError("the successor's grant is not in its ledger"));
    boolean early = successor.atNanos() - (lastSent + LEASE.toNanos()) < 0;
    long killViolations = (early ? 1 : 0) + (third.term() > second.term() ? 0 : 1);
    violations += killViolations;
    if (killViolations > 0) {
      failures.add(
          "killed leader: successor early="
              + early
              + ", terms "
              + second.term()
              + " -> "
              + third.term());
    }
    new ScenarioReport(
            "leader killed (kill -9)",
            t.name(),
            LOAD,
            "SIGKILL of the leader",
            "successor (term "
                + second.term()
                + " -> "
                + third.term()
                + ") granted "
                + ScenarioBase.ms(successor.atNanos() - killedAt)
                + " after the kill, "
                + ScenarioBase.ms(successor.atNanos() - (lastSent + LEASE.toNanos()))
                + " after the earliest end of the victim's last lease",
            killViolations)
        .publish();

    // 3. backend outage and recovery (backends the test can restart)
    Grant leaderNow = third;
    if (t instanceof RestartableTarget r) {
      long downAt = System.nanoTime();
      r.stopServer(true);
      String ended = leaderNow.worker().await("@CHANGE LOST " + leaderNow.term() + " ", WAIT);
      TestTiming.pass(LEASE); // nobody may lead while the server is down
      long upAt = System.nanoTime();
      long grantedWhileDown =
          alive.stream()
              .flatMap(w -> w.lines("@CHANGE ACQUIRED").stream())
              .filter(l -> WorkerProcess.number(l, 3) > downAt)
              .count();
      boolean nobodyLeads =
          alive.stream().noneMatch(w -> lastChange(w).startsWith("@CHANGE ACQUIRED"));
      r.startServer();
      Grant fourth = awaitGrantAfter(alive, upAt);
      long outageViolations =
          grantedWhileDown + (nobodyLeads ? 0 : 1) + (fourth.term() > leaderNow.term() ? 0 : 1);
      violations += outageViolations;
      if (outageViolations > 0) {
        failures.add(
            "outage: " + grantedWhileDown + " grants while down, nobody leads " + nobodyLeads);
      }
      new ScenarioReport(
              "backend outage under an elected leader",
              t.name(),
              LOAD,
              "server crashed for "
                  + ScenarioBase.ms(upAt - downAt)
                  + ", restarted on the same port",
              "the leader reported LOST ("
                  + WorkerProcess.field(ended, 4)
                  + ") "
                  + ScenarioBase.ms(WorkerProcess.number(ended, 3) - downAt)
                  + " after the crash; nobody led while down; one leader again (term "
                  + leaderNow.term()
                  + " -> "
                  + fourth.term()
                  + ") "
                  + ScenarioBase.ms(fourth.at() - upAt)
                  + " after the restart",
              outageViolations)
          .publish();
      leaderNow = fourth;
    }

    // the run: one leader at the end, then every window and every lease checked
    TestTiming.pass(LEASE);
    long leadersAtEnd =
        alive.stream().filter(w -> lastChange(w).startsWith("@CHANGE ACQUIRED")).count();
    long endedAt = System.nanoTime();
    for (WorkerProcess w : alive) {
      w.stop(Duration.ofSeconds(60));
    }
    List<Window> windows = new ArrayList<>();
    for (WorkerProcess w : workers) {
      long openEnd = w == second.worker() ? killedAt : endedAt;
      for (Window win : LeadershipCheck.windows(w.label(), w.lines("@CHANGE"), openEnd)) {
        boolean frozen = w == first.worker() && win.term() == first.term();
        windows.add(new Window(win.worker(), win.term(), win.start(), win.end(), frozen));
      }
    }
    List<String> electionViolations = LeadershipCheck.violations(windows, LEASE);
    Verdict ledger = Verdict.of(history(workers));
    long runViolations =
        electionViolations.size() + ledger.violations() + (leadersAtEnd == 1 ? 0 : 1);
    violations += runViolations;
    failures.addAll(electionViolations);
    if (leadersAtEnd != 1) {
      failures.add(leadersAtEnd + " leaders at the end of the run");
    }
    List<Window> unfrozen = windows.stream().filter(w -> !w.frozen()).toList();
    new ScenarioReport(
            "leader election run checks",
            t.name(),
            LOAD,
            "all of the above",
            windows.size()
                + " terms, each led once, terms strictly increasing; largest overlap of believed"
                + " leaderships outside the frozen one "
                + ScenarioBase.ms(Math.max(0, LeadershipCheck.maxOverlapNanos(unfrozen)))
                + " (bound: one lease); "
                + leadersAtEnd
                + " leader at the end; "
                + ledger.summary(),
            runViolations)
        .publish();
    ledger.assertNone();
    assertThat(failures).isEmpty();
    assertThat(violations).isZero();
  }

  private static List<WorkerProcess> others(List<WorkerProcess> all, WorkerProcess not) {
    return all.stream().filter(w -> w != not && w.isAlive()).toList();
  }

  private static String lastChange(WorkerProcess w) {
    List<String> changes = w.lines("@CHANGE");
    return changes.isEmpty() ? "" : changes.get(changes.size() - 1);
  }

  private static List<String> writes(WorkerProcess w, long term) {
    return w.lines("@WRITE " + term + " ");
  }

  /** Waits for an {@code ACQUIRED} seen after {@code after} in one of {@code workers}. */
  private static Grant awaitGrantAfter(List<WorkerProcess> workers, long after) {
    List<Grant> found = new ArrayList<>();
    TestTiming.await(
        "a worker is granted leadership",
        () -> {
          Optional<Grant> g = firstGrantAfter(workers, after);
          g.ifPresent(found::add);
          return g.isPresent();
        },
        WAIT);
    return found.get(found.size() - 1);
  }

  private static Optional<Grant> firstGrantAfter(List<WorkerProcess> workers, long after) {
    Grant best = null;
    for (WorkerProcess w : workers) {
      for (String l : w.lines("@CHANGE ACQUIRED")) {
        long at = WorkerProcess.number(l, 3);
        if (at - after > 0 && (best == null || at < best.at())) {
          best = new Grant(w, WorkerProcess.number(l, 2), at);
        }
      }
    }
    return Optional.ofNullable(best);
  }
}
