package io.hostloom.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import io.hostloom.testkit.LockEvent;
import io.hostloom.testkit.TestTiming;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * Exclusive schedules ({@code hostloom-scheduling}) across JVMs: several worker processes schedule
 * the same job every 200 ms; each run prints {@code @RAN occurrence token nanos}, which is the run
 * ledger checked here, and the lock history of every process goes through {@link Verdict} as in the
 * other scenarios.
 */
abstract class ScheduleScenarios extends ReliabilityScenarios {
  static final Duration PERIOD = Duration.ofMillis(200);

  /** One run as a worker reported it. */
  record Run(String worker, long occurrence, long token, long startedNanos) {
    static Run parse(String worker, String line) {
      return new Run(
          worker,
          WorkerProcess.number(line, 1),
          WorkerProcess.number(line, 2),
          WorkerProcess.number(line, 3));
    }
  }

  Map<String, String> scheduleArgs(String name, Duration lease, Duration hold) {
    Map<String, String> a = workerArgs(target().spec(), "schedule");
    a.put("keys", name);
    a.put("period", PERIOD.toString());
    a.put("lease", lease.toString());
    a.put("minimumHold", "PT0.15S");
    a.put("maxLateness", "PT0.1S");
    a.put("hold", hold.toString());
    return a;
  }

  static List<Run> runs(List<WorkerProcess> workers) {
    List<Run> all = new ArrayList<>();
    for (WorkerProcess w : workers) {
      for (String line : w.lines("@RAN ")) {
        all.add(Run.parse(w.label(), line));
      }
    }
    all.sort(Comparator.comparingLong(Run::occurrence));
    return all;
  }

  /** Occurrences that ran more than once, and runs whose token is not above the previous run's. */
  static List<String> ledgerProblems(List<Run> runs) {
    List<String> problems = new ArrayList<>();
    Map<Long, List<Run>> byOccurrence = new TreeMap<>();
    runs.forEach(r -> byOccurrence.computeIfAbsent(r.occurrence(), k -> new ArrayList<>()).add(r));
    byOccurrence.forEach(
        (occ, rs) -> {
          if (rs.size() > 1) {
            problems.add("occurrence " + occ + " ran " + rs.size() + " times: " + rs);
          }
        });
    for (int i = 1; i < runs.size(); i++) {
      if (runs.get(i).token() <= runs.get(i - 1).token()) {
        problems.add("token did not grow: " + runs.get(i - 1) + " -> " + runs.get(i));
      }
    }
    return problems;
  }

  @Test
  void scheduledJobRunsEachOccurrenceAtMostOnceAcrossProcesses() {
    int processes = 3;
    Duration runFor = Duration.ofSeconds(4);
    List<WorkerProcess> workers = new ArrayList<>();
    for (int p = 1; p <= processes; p++) {
      Map<String, String> a = scheduleArgs("tick", Duration.ofSeconds(2), Duration.ofMillis(10));
      a.put("duration", runFor.toString());
      a.put("waitForGo", "true");
      a.put("autoExtend", "false");
      workers.add(worker("s" + p, a));
    }
    workers.forEach(w -> w.await("@READY", START));
    workers.forEach(WorkerProcess::go);
    Map<String, Long> sum = new HashMap<>();
    for (WorkerProcess w : workers) {
      w.awaitStats(runFor.plus(Duration.ofSeconds(60)))
          .forEach((k, v) -> sum.merge(k, v, Long::sum));
    }
    List<Run> runs = runs(workers);
    List<String> problems = ledgerProblems(runs);
    Verdict report = Verdict.of(history(workers));
    long ranBy = runs.stream().map(Run::worker).distinct().count();
    new ScenarioReport(
            "Exclusive schedule",
            target().name(),
            processes
                + " JVMs schedule one job every 200 ms for "
                + runFor.toSeconds()
                + " s (lease 2 s, minimum hold 150 ms, max lateness 100 ms, job 10 ms)",
            "none",
            runs.size()
                + " runs of "
                + (runs.isEmpty()
                    ? 0
                    : (runs.get(runs.size() - 1).occurrence() - runs.get(0).occurrence())
                            / PERIOD.toNanos()
                        + 1)
                + " occurrences from first to last, by "
                + ranBy
                + " JVMs; "
                + sum.get("busy")
                + " skipped, "
                + sum.get("other")
                + " guard failures; "
                + problems.size()
                + " ledger problems; "
                + report.summary(),
            report.violations() + problems.size())
        .publish();
    report.assertNone();
    assertThat(problems).isEmpty();
    assertThat(runs).isNotEmpty();
  }

  @Test
  void killedRunningInstanceLetsTheNextOccurrenceRunElsewhereAfterItsLease() {
    Duration lease = Duration.ofSeconds(1);
    String name = "killed";
    String backendKey = "rel:lock:schedule:" + name;
    Map<String, String> v = scheduleArgs(name, lease, Duration.ofMinutes(2)); // never ends itself
    v.put("autoExtend", "true"); // held while it lives, however long it runs
    v.put("duration", START.plusSeconds(60).toString());
    WorkerProcess victim = worker("victim", v);
    List<WorkerProcess> others = new ArrayList<>();
    for (int c = 1; c <= 2; c++) {
      Map<String, String> a = scheduleArgs(name, lease, Duration.ofMillis(10));
      a.put("autoExtend", "false");
      a.put("duration", START.plusSeconds(30).toString());
      a.put("waitForGo", "true");
      others.add(worker("o" + c, a));
    }
    others.forEach(w -> w.await("@READY", START));
    Run victimRun = Run.parse("victim", victim.await("@RAN ", START));
    others.forEach(WorkerProcess::go);
    // the others skip while the victim runs and extends; then it dies mid-run
    TestTiming.await(
        "the victim extended its claim",
        () -> victim.events().stream().anyMatch(e -> e.type() == LockEvent.Type.EXTEND),
        Duration.ofSeconds(10));
    long killedAt = System.nanoTime();
    victim.kill();
    TestTiming.await(
        "another JVM ran an occurrence",
        () -> others.stream().anyMatch(w -> !w.lines("@RAN ").isEmpty()),
        Duration.ofSeconds(15));
    for (WorkerProcess w : others) {
      w.stop(Duration.ofSeconds(60));
    }
    List<WorkerProcess> all = new ArrayList<>(others);
    all.add(victim);
    List<LockEvent> events = history(all);
    Verdict report = Verdict.of(events);
    List<Run> runs = runs(all);
    List<String> problems = ledgerProblems(runs);
    long leaseEndLow =
        events.stream()
                .filter(e -> e.key().equals(backendKey) && e.holder().startsWith("victim"))
                .filter(e -> e.type() == LockEvent.Type.ENTER || e.type() == LockEvent.Type.EXTEND)
                .mapToLong(LockEvent::sentNanos)
                .max()
                .orElseThrow()
            + lease.toNanos();
    Run successor =
        runs.stream()
            .filter(r -> !r.worker().equals("victim"))
            .min(Comparator.comparingLong(Run::startedNanos))
            .orElseThrow();
    boolean early = successor.startedNanos() - leaseEndLow < 0;
    new ScenarioReport(
            "Scheduled job's instance killed (kill -9)",
            target().name(),
            "a victim JVM runs an occurrence (lease 1 s, auto-extended) while 2 JVMs schedule the"
                + " same job every 200 ms",
            "SIGKILL of the running JVM",
            "the next run started "
                + ms(successor.startedNanos() - killedAt)
                + " after the kill and "
                + ms(successor.startedNanos() - leaseEndLow)
                + " after the earliest end of the victim's lease; token "
                + victimRun.token()
                + " -> "
                + successor.token()
                + "; "
                + problems.size()
                + " ledger problems; "
                + report.summary(),
            report.violations() + problems.size() + (early ? 1 : 0))
        .publish();
    report.assertNone();
    assertThat(problems).isEmpty();
    assertThat(early).as("a run started before the victim's lease could have ended").isFalse();
    assertThat(successor.token()).isGreaterThan(victimRun.token());
  }
}
