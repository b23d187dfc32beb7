package io.hostloom.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import io.hostloom.testkit.LockEvent;
import io.hostloom.testkit.TestTiming;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The scenarios of a backend whose server the test can stop and start ({@link RestartableTarget}):
 * the server goes down under multi-process load and comes back on the same port. Callers see {@link
 * io.hostloom.locking.LockBackendUnavailableException}; nothing is granted while the server is
 * down; the history stays clean; and the same clients (no process restarted) are granted again.
 */
abstract class OutageScenarios extends ScheduleScenarios {

  @Override
  abstract RestartableTarget target();

  /**
   * How long the server stays down: longer than every lease of the load, so that no lease from
   * before the outage can still be valid when a server that lost its data comes back.
   */
  static final Duration OUTAGE = Duration.ofMillis(1500);

  static final Duration LEASE = Duration.ofMillis(500);

  @Test
  void backendOutageUnderLoad() {
    RestartableTarget t = target();
    int processes = 3;
    int threads = 3;
    List<Boolean> cycles = new ArrayList<>(); // true: crash, false: orderly stop
    for (int i = 0; i < Soak.pick(2, 10); i++) {
      cycles.add(i % 2 == 0);
    }
    List<WorkerProcess> workers = new ArrayList<>();
    for (int p = 1; p <= processes; p++) {
      Map<String, String> a = workerArgs(t.spec().withTimeout(Duration.ofSeconds(1)), "contend");
      a.put("keys", "k0,k1,k2");
      a.put("threads", Integer.toString(threads));
      a.put("lease", LEASE.toString());
      a.put("maxWait", "PT1S");
      a.put("retryStep", "PT0.005S");
      a.put("hold", "PT0.001S");
      a.put("duration", START.plus(Duration.ofSeconds(60L * cycles.size())).toString());
      a.put("waitForGo", "true");
      workers.add(worker("o" + p, a));
    }
    workers.forEach(w -> w.await("@READY", START));
    long started = System.nanoTime();
    workers.forEach(WorkerProcess::go);
    for (WorkerProcess w : workers) {
      TestTiming.await(
          w + " is granted before the outage",
          () -> enters(w, started) >= 20,
          Duration.ofSeconds(60));
    }
    List<long[]> downtimes = new ArrayList<>(); // {down, upBegin, up}
    List<String> recoveries = new ArrayList<>();
    try {
      for (boolean crash : cycles) {
        t.stopServer(crash);
        long down = System.nanoTime(); // the server is gone from here on
        TestTiming.pass(OUTAGE);
        long upBegin = System.nanoTime();
        t.startServer();
        long up = System.nanoTime();
        downtimes.add(new long[] {down, upBegin, up});
        for (WorkerProcess w : workers) {
          TestTiming.await(
              w + " is granted again after the restart, without being restarted",
              () -> enters(w, up) > 0,
              Duration.ofSeconds(60));
        }
        long firstAfter = Long.MAX_VALUE;
        for (WorkerProcess w : workers) {
          for (LockEvent e : w.events()) {
            if (e.type() == LockEvent.Type.ENTER && e.sentNanos() - up > 0) {
              firstAfter = Math.min(firstAfter, e.atNanos());
            }
          }
        }
        recoveries.add(
            (crash ? "SIGKILL" : "orderly stop")
                + ": regranted "
                + ms(firstAfter - up)
                + " after up");
      }
    } finally {
      t.startServer(); // never leave the shared server down for the next test
    }
    Map<String, Long> sum = new HashMap<>();
    for (WorkerProcess w : workers) {
      Map<String, Long> s = w.stop(Duration.ofSeconds(60));
      s.forEach((k, v) -> sum.merge(k, v, Long::sum));
      assertThat(s.get("unavailable") + s.get("timeout") + s.get("other"))
          .as("%s saw the outage as LockBackendUnavailableException", w)
          .isPositive();
    }
    List<LockEvent> events = history(workers);
    Verdict report = Verdict.of(events);
    long falseGrants = 0;
    for (LockEvent e : events) {
      for (long[] d : downtimes) {
        // sent after the server was gone, seen before it could have been up again
        if (e.type() == LockEvent.Type.ENTER
            && e.sentNanos() - d[0] > 0
            && e.atNanos() - d[1] < 0) {
          falseGrants++;
        }
      }
    }
    new ScenarioReport(
            "Backend outage",
            t.name(),
            processes + " JVMs x " + threads + " threads, 3 keys, lease 0.5 s, command timeout 1 s",
            cycles.size()
                + " outage(s) of "
                + OUTAGE.toMillis()
                + " ms (SIGKILL / orderly stop alternating), restart on the same port",
            sum.get("grants")
                + " grants; LockBackendUnavailableException by kind: UNAVAILABLE "
                + sum.get("unavailable")
                + ", TIMEOUT "
                + sum.get("timeout")
                + ", OTHER "
                + sum.get("other")
                + "; grants while down: "
                + falseGrants
                + "; every client regranted without restart ("
                + String.join(", ", recoveries)
                + "); "
                + report.summary(),
            report.violations() + falseGrants)
        .publish();
    report.assertNone();
    assertThat(falseGrants).as("grants while the server was down").isZero();
  }

  /** ENTER events of {@code w} whose acquire was sent after {@code nanos}. */
  private static long enters(WorkerProcess w, long nanos) {
    return w.events().stream()
        .filter(e -> e.type() == LockEvent.Type.ENTER && e.sentNanos() - nanos > 0)
        .count();
  }
}
