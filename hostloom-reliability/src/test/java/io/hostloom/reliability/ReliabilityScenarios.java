package io.hostloom.reliability;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.hostloom.locking.LockBackendUnavailableException;
import io.hostloom.locking.LockFailureKind;
import io.hostloom.locking.LockHandle;
import io.hostloom.locking.LockOptions;
import io.hostloom.testkit.LockEvent;
import io.hostloom.testkit.TcpFaultProxy;
import io.hostloom.testkit.TestTiming;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The multi-process reliability scenarios every backend runs: contention between JVMs, a holder
 * killed with {@code kill -9}, replies stalled past the lease by a {@link TcpFaultProxy}, paused
 * holders ({@code SIGSTOP}/{@code SIGCONT}) against a fenced resource, and bad input (in {@link
 * BadInputScenarios}). A backend's test class supplies the running server through {@link
 * #target()}.
 *
 * <p>Every lock client, in a worker JVM or in the test JVM, records what it observed into a ledger
 * ({@link RecordingBackend}); the merged ledgers go through {@link Verdict}: no two holds of a key
 * overlap while their leases are valid, and fencing tokens strictly increase per key, in the order
 * grants were seen. Every scenario publishes a {@link ScenarioReport} row, then fails on any
 * violation.
 */
abstract class ReliabilityScenarios extends BadInputScenarios {

  /** Contention settings; a slower backend may lower them. */
  int contentionThreads() {
    return Soak.pick(4, 6);
  }

  long contentionGrantsPerProcess() {
    return Soak.pick(1_500, 400_000);
  }

  Duration contentionCap() {
    return Soak.pick(Duration.ofSeconds(45), Soak.contentionCap());
  }

  // ------------------------------------------------------------------ contention

  @Test
  void contentionBetweenProcesses() {
    BackendTarget t = target();
    int processes = 3;
    int threads = contentionThreads();
    String keys = "k0,k1,k2";
    Duration lease = Duration.ofSeconds(1);
    List<WorkerProcess> workers = new ArrayList<>();
    for (int p = 1; p <= processes; p++) {
      Map<String, String> a = workerArgs(t.spec(), "contend");
      a.put("keys", keys);
      a.put("threads", Integer.toString(threads));
      a.put("lease", lease.toString());
      a.put("maxWait", "PT2S");
      a.put("retryStep", "PT0.002S");
      a.put("hold", "PT0.002S");
      a.put("grants", Long.toString(contentionGrantsPerProcess()));
      a.put("duration", contentionCap().toString());
      a.put("waitForGo", "true");
      workers.add(worker("p" + p, a));
    }
    workers.forEach(w -> w.await("@READY", START));
    long start = System.nanoTime();
    workers.forEach(WorkerProcess::go);
    Map<String, Long> sum = new HashMap<>();
    for (WorkerProcess w : workers) {
      Map<String, Long> s = w.awaitStats(contentionCap().plus(Duration.ofSeconds(60)));
      assertThat(s.get("grants")).as("grants of %s", w).isPositive();
      s.forEach((k, v) -> sum.merge(k, v, Long::sum));
    }
    long elapsed = System.nanoTime() - start;
    Verdict report = Verdict.of(history(workers));
    long failures = sum.get("unavailable") + sum.get("timeout") + sum.get("other");
    new ScenarioReport(
            "Contention",
            t.name(),
            processes + " JVMs x " + threads + " threads, 3 keys, lease 1 s, hold 0-2 ms",
            "none",
            sum.get("grants")
                + " grants, "
                + sum.get("calls")
                + " backend calls ("
                + sum.get("busy")
                + " gave up busy, "
                + failures
                + " failed: UNAVAILABLE "
                + sum.get("unavailable")
                + ", TIMEOUT "
                + sum.get("timeout")
                + ", OTHER "
                + sum.get("other")
                + "; "
                + sum.get("lost")
                + " leases lost) in "
                + ms(elapsed)
                + "; fenced writes "
                + sum.get("accepted")
                + " accepted, "
                + sum.get("rejected")
                + " rejected; "
                + report.summary(),
            report.violations())
        .publish();
    report.assertNone();
    // Failures without injected faults (a reply later than the lease on a busy machine: TIMEOUT;
    // a connection the server closed under the client: OTHER) are reported, not asserted: the
    // scenario asserts safety, and the kernel handles both as its contract says.
  }

  // ------------------------------------------------------------------ kill -9

  int crashRounds() {
    return Soak.pick(1, 10);
  }

  @Test
  void killedHolderBlocksOthersUntilItsLeaseEnds() {
    BackendTarget t = target();
    Duration lease = Duration.ofSeconds(3);
    List<String> outcomes = new ArrayList<>();
    List<Verdict> verdicts = new ArrayList<>();
    List<String> failures = new ArrayList<>();
    long violations = 0;
    for (int round = 1; round <= crashRounds(); round++) {
      String key = "crash-" + round;
      String backendKey = "rel:lock:" + key;
      Map<String, String> v = workerArgs(t.spec(), "hold");
      v.put("keys", key);
      v.put("lease", lease.toString());
      v.put("duration", START.plusSeconds(60).toString());
      WorkerProcess victim = worker("victim" + round, v);
      List<WorkerProcess> others = new ArrayList<>();
      for (int c = 1; c <= 2; c++) {
        Map<String, String> a = workerArgs(t.spec(), "contend");
        a.put("keys", key);
        a.put("threads", "2");
        a.put("lease", "PT0.5S");
        a.put("hold", "PT0.001S");
        a.put("grants", "200");
        a.put("duration", START.plusSeconds(30).toString());
        a.put("waitForGo", "true");
        others.add(worker("r" + round + "c" + c, a));
      }
      others.forEach(w -> w.await("@READY", START));
      victim.await("@HOLDING", START);
      others.forEach(WorkerProcess::go); // they contend while the victim still lives
      long killedAt = System.nanoTime();
      victim.kill();
      for (WorkerProcess w : others) {
        w.awaitStats(Duration.ofSeconds(60));
      }
      List<WorkerProcess> all = new ArrayList<>(others);
      all.add(victim);
      List<LockEvent> events = history(all);
      Verdict report = Verdict.of(events);
      violations += report.violations();
      LockEvent held =
          events.stream()
              .filter(e -> e.key().equals(backendKey) && e.holder().startsWith("victim"))
              .filter(e -> e.type() == LockEvent.Type.ENTER)
              .findFirst()
              .orElseThrow(() -> new AssertionError("the victim's grant is not in its ledger"));
      LockEvent successor =
          events.stream()
              .filter(e -> e.key().equals(backendKey) && !e.holder().startsWith("victim"))
              .filter(e -> e.type() == LockEvent.Type.ENTER)
              .min(Comparator.comparingLong(LockEvent::atNanos))
              .orElseThrow(() -> new AssertionError("nobody acquired after the crash"));
      long leaseEndLow = held.sentNanos() + lease.toNanos(); // the backend's lease lasts at least
      long leaseEndHigh = held.atNanos() + lease.toNanos(); // ... and at most this long
      boolean early = successor.atNanos() - leaseEndLow < 0;
      boolean late =
          successor.atNanos() - leaseEndHigh >= TestTiming.scaled(Duration.ofSeconds(5)).toNanos();
      boolean tokenOk = successor.fencingToken() > held.fencingToken();
      violations += early ? 1 : 0;
      violations += tokenOk ? 0 : 1;
      outcomes.add(
          "successor granted "
              + ms(successor.atNanos() - killedAt)
              + " after the kill and "
              + ms(successor.atNanos() - leaseEndLow)
              + " after the earliest possible end of the victim's lease; token "
              + held.fencingToken()
              + " -> "
              + successor.fencingToken()
              + "; "
              + report.summary());
      verdicts.add(report);
      if (early) {
        failures.add(
            "round " + round + ": a successor was granted before the victim's lease ended");
      }
      if (late) {
        failures.add("round " + round + ": the orphaned lease did not end by expiry in time");
      }
      if (!tokenOk) {
        failures.add("round " + round + ": the successor's token is not larger");
      }
    }
    new ScenarioReport(
            "Holder killed (kill -9)",
            t.name(),
            "victim holds (lease 3 s) + 2 JVMs x 2 threads contending, "
                + crashRounds()
                + " round(s)",
            "SIGKILL of the holder JVM",
            String.join("; ", outcomes),
            violations)
        .publish();
    verdicts.forEach(Verdict::assertNone);
    assertThat(failures).isEmpty();
  }

  // ------------------------------------------------------------------ stalled replies

  @Test
  void stalledRepliesMakeTheHolderLoseBeforeASuccessorIsGranted() {
    BackendTarget t = target();
    String key = "stall";
    String resourceKey = resourceKey(key);
    Duration lease = Duration.ofMillis(1500);
    try (TcpFaultProxy proxy = closeLater(TcpFaultProxy.start(t.endpoint()))) {
      Map<String, String> a =
          workerArgs(
              t.specThrough(proxy.host(), proxy.port()).withTimeout(Duration.ofSeconds(1)),
              "fenced");
      a.put("keys", key);
      a.put("resource", FencedDatabase.address());
      a.put("resourceKey", resourceKey);
      a.put("lease", lease.toString());
      a.put("autoExtend", "true");
      a.put("onLost", "CANCEL");
      a.put("duration", START.plusSeconds(60).toString());
      WorkerProcess holder = worker("stalled", a);
      long holderToken = WorkerProcess.number(holder.await("@FENCED", START), 2);
      TestTiming.await(
          "the holder's heartbeat extended its lease through the proxy",
          () -> holder.events().stream().anyMatch(e -> e.type() == LockEvent.Type.EXTEND),
          Duration.ofSeconds(30));
      long stalledAt = System.nanoTime();
      proxy.holdReplies(); // requests still reach the server; the holder hears nothing back

      LockClient next = closeLater(new LockClient(t.spec(), dir, "successor"));
      long successorToken;
      long successorToldAt;
      long successorWroteAt;
      try (LockHandle h =
          next.lock().acquire(key, LockClient.patient(lease, Duration.ofSeconds(30)))) {
        // the ledger's ENTER is the attempt's send time; the server may grant it much later
        successorToldAt = System.nanoTime();
        successorToken = h.fencingToken();
        try (FencedResource r = FencedResource.open(FencedDatabase.address())) {
          assertThat(r.write(resourceKey, successorToken, -1)).as("the successor's write").isTrue();
          successorWroteAt = System.nanoTime();
        }
      }
      String lost = holder.await("@LOST", Duration.ofSeconds(30));
      long interruptedAt =
          WorkerProcess.number(holder.await("@INTERRUPTED", Duration.ofSeconds(30)), 1);
      proxy.heal();
      holder.stop(Duration.ofSeconds(30));

      List<LockEvent> events = history(List.of(holder), next.ledger());
      Verdict report = Verdict.of(events);
      LockEvent granted = successorEnter(events, "successor", key);
      long lostAt = WorkerProcess.number(lost, 2);
      List<String> lateWrites = writesAfter(holder, successorWroteAt);
      new ScenarioReport(
              "Replies stalled past the lease",
              t.name(),
              "1 holder JVM (lease 1.5 s, auto-extend, OnLost.CANCEL) via proxy, 1 successor",
              "TcpFaultProxy holds every reply to the holder",
              "holder lost ("
                  + WorkerProcess.field(lost, 1)
                  + ") "
                  + ms(lostAt - stalledAt)
                  + " after the stall, action interrupted "
                  + ms(interruptedAt - lostAt)
                  + " later; successor told of its grant "
                  + ms(successorToldAt - lostAt)
                  + " after the loss (its attempt sent "
                  + ms(granted.atNanos() - lostAt)
                  + " after it); token "
                  + holderToken
                  + " -> "
                  + successorToken
                  + "; holder writes after the successor's write: "
                  + lateWrites.size()
                  + "; "
                  + report.summary(),
              report.violations())
          .publish();
      report.assertNone();
      assertThat(lostAt)
          .as("the holder's lost signal precedes the successor's grant")
          .isLessThan(successorToldAt);
      assertThat(interruptedAt)
          .as("OnLost.CANCEL interrupts the action")
          .isGreaterThanOrEqualTo(lostAt);
      assertThat(successorToken).isGreaterThan(holderToken);
      assertThat(lateWrites)
          .as("stale writes accepted by the fenced resource")
          .allMatch(w -> w.endsWith("false"));
    }
  }

  // ------------------------------------------------------------------ late replies

  @Test
  void repliesLaterThanTheLeaseAreNeverTrusted() {
    BackendTarget t = target();
    String key = "late";
    Duration lease = Duration.ofSeconds(1);
    Duration latency = Duration.ofMillis(1500);
    try (TcpFaultProxy proxy = closeLater(TcpFaultProxy.start(t.endpoint()))) {
      LockClient slow =
          closeLater(
              new LockClient(
                  t.specThrough(proxy.host(), proxy.port()).withTimeout(Duration.ofSeconds(5)),
                  dir,
                  "slow"));
      // connect and warm up at full speed first: only the lock call itself is slow
      slow.lock().tryAcquire("warm-up").ifPresent(LockHandle::close);
      proxy.setLatency(TcpFaultProxy.Direction.TO_CLIENT, latency);
      LockOptions once = LockOptions.builder().lease(lease).maxWait(Duration.ZERO).build();
      long sent = System.nanoTime();
      Throwable failure = catchThrowable(() -> slow.lock().tryAcquire(key, once));
      long failedAt = System.nanoTime();

      LockClient next = closeLater(new LockClient(t.spec(), dir, "successor"));
      long successorToken;
      try (LockHandle h =
          next.lock().acquire(key, LockClient.patient(lease, Duration.ofSeconds(30)))) {
        successorToken = h.fencingToken();
      }
      proxy.setLatency(Duration.ZERO);
      List<LockEvent> events = history(List.of(), slow.ledger(), next.ledger());
      Verdict report = Verdict.of(events);
      Optional<LockEvent> late =
          events.stream()
              .filter(e -> e.holder().startsWith("slow-") && e.key().equals("rel:lock:" + key))
              .findFirst();
      LockEvent granted = successorEnter(events, "successor", key);
      new ScenarioReport(
              "Replies later than the lease",
              t.name(),
              "1 client (lease 1 s, one attempt) via proxy, 1 successor",
              "TcpFaultProxy delays every reply by " + latency.toMillis() + " ms",
              "the caller got "
                  + (failure == null ? "no exception" : failure.getClass().getSimpleName())
                  + (failure instanceof LockBackendUnavailableException u ? " " + u.kind() : "")
                  + " after "
                  + ms(failedAt - sent)
                  + " (the lock cancelled the call at request + lease; "
                  + late.map(e -> "the late grant, token " + e.fencingToken() + ", arrived anyway")
                      .orElse("its late reply was dropped")
                  + "); successor granted "
                  + ms(granted.atNanos() - sent)
                  + " after the late request (token "
                  + successorToken
                  + "); "
                  + report.summary(),
              report.violations())
          .publish();
      report.assertNone();
      assertThat(failure)
          .as("a grant that arrives after its lease is never handed out")
          .isInstanceOf(LockBackendUnavailableException.class);
      assertThat(((LockBackendUnavailableException) failure).kind())
          .isEqualTo(LockFailureKind.TIMEOUT);
      late.ifPresent(e -> assertThat(successorToken).isGreaterThan(e.fencingToken()));
    }
  }

  // ------------------------------------------------------------------ SIGSTOP

  @Test
  void pausedHoldersAreFencedOffAfterResuming() {
    BackendTarget t = target();
    Duration lease = Duration.ofSeconds(2); // heartbeats at 1 s: no loss before the pause
    List<WorkerProcess> holders = new ArrayList<>();
    for (String onLost : List.of("CANCEL", "OBSERVE")) {
      Map<String, String> a = workerArgs(t.spec(), "fenced");
      a.put("keys", "pause-" + onLost.toLowerCase(java.util.Locale.ROOT));
      a.put("resource", FencedDatabase.address());
      a.put("resourceKey", resourceKey(a.get("keys")));
      a.put("lease", lease.toString());
      a.put("autoExtend", "true");
      a.put("onLost", onLost);
      a.put("duration", START.plusSeconds(60).toString());
      holders.add(worker("paused-" + onLost.toLowerCase(java.util.Locale.ROOT), a));
    }
    WorkerProcess cancel = holders.get(0);
    WorkerProcess observe = holders.get(1);
    Map<WorkerProcess, Long> tokens = new HashMap<>();
    for (WorkerProcess w : holders) {
      tokens.put(w, WorkerProcess.number(w.await("@FENCED", START), 2));
      TestTiming.await(w + " extended its lease", () -> extended(w), Duration.ofSeconds(30));
    }
    long pausedAt = System.nanoTime();
    holders.forEach(WorkerProcess::pause);
    long resumedAt;
    Map<WorkerProcess, Long> successorTokens = new HashMap<>();
    LockClient next = closeLater(new LockClient(t.spec(), dir, "successor"));
    try (FencedResource r = FencedResource.open(FencedDatabase.address())) {
      List<LockHandle> handles = new ArrayList<>();
      try {
        for (WorkerProcess w : holders) {
          String key = "pause-" + w.label().substring("paused-".length());
          LockHandle h =
              next.lock()
                  .acquire(key, LockClient.patient(Duration.ofSeconds(30), Duration.ofSeconds(30)));
          handles.add(h);
          successorTokens.put(w, h.fencingToken());
          assertThat(r.write(resourceKey(key), h.fencingToken(), -1))
              .as("the successor's write")
              .isTrue();
        }
        resumedAt = System.nanoTime();
        holders.forEach(WorkerProcess::resume);
        cancel.await("@LOST", Duration.ofSeconds(30));
        cancel.await("@INTERRUPTED", Duration.ofSeconds(30));
        observe.await("@LOST", Duration.ofSeconds(30));
        TestTiming.await(
            "the OBSERVE holder writes again after resuming",
            () -> !writesAfter(observe, resumedAt).isEmpty(),
            Duration.ofSeconds(30));
      } finally {
        handles.forEach(LockHandle::close);
      }
      for (WorkerProcess w : holders) {
        w.stop(Duration.ofSeconds(30));
        String key = "pause-" + w.label().substring("paused-".length());
        assertThat(r.fence(resourceKey(key)))
            .as("the resource keeps the successor's token")
            .isEqualTo(successorTokens.get(w));
      }
    }
    Verdict report = Verdict.of(history(holders, next.ledger()));
    List<String> details = new ArrayList<>();
    for (WorkerProcess w : holders) {
      long lostAt = WorkerProcess.number(w.await("@LOST", Duration.ofSeconds(1)), 2);
      List<String> stale = writesAfter(w, resumedAt);
      details.add(
          w.label()
              + ": lost ("
              + WorkerProcess.field(w.await("@LOST", Duration.ofSeconds(1)), 1)
              + ") "
              + ms(lostAt - resumedAt)
              + " after SIGCONT, "
              + (stale.isEmpty()
                  ? "interrupted before writing again"
                  : stale.size()
                      + " stale write(s) after resuming, "
                      + stale.stream().filter(x -> x.endsWith("false")).count()
                      + " rejected"));
      assertThat(lostAt).as("%s noticed the loss only once resumed", w).isGreaterThan(resumedAt);
      assertThat(stale).as("stale writes of %s accepted", w).allMatch(s -> s.endsWith("false"));
      assertThat(successorTokens.get(w)).isGreaterThan(tokens.get(w));
    }
    new ScenarioReport(
            "Holder paused (SIGSTOP/SIGCONT)",
            t.name(),
            "2 holder JVMs (lease 2 s, auto-extend; OnLost CANCEL / OBSERVE) writing a fenced"
                + " resource every 50 ms; successors in the test JVM",
            "SIGSTOP " + ms(resumedAt - pausedAt) + ", successors acquire and write, SIGCONT",
            String.join("; ", details) + "; " + report.summary(),
            report.violations())
        .publish();
    report.assertNone();
  }

  /** The fenced resource's record for {@code key}: one per backend, as backends share the table. */
  String resourceKey(String key) {
    return target().name().toLowerCase(java.util.Locale.ROOT) + "-" + key;
  }

  /** The first grant of {@code key} recorded by holders labelled {@code label}-*. */
  static LockEvent successorEnter(List<LockEvent> events, String label, String key) {
    return events.stream()
        .filter(e -> e.key().equals("rel:lock:" + key) && e.holder().startsWith(label + "-"))
        .filter(e -> e.type() == LockEvent.Type.ENTER)
        .min(Comparator.comparingLong(LockEvent::atNanos))
        .orElseThrow(() -> new AssertionError(label + " was never granted"));
  }

  /** Whether {@code w}'s ledger shows a successful heartbeat. */
  static boolean extended(WorkerProcess w) {
    return w.events().stream().anyMatch(e -> e.type() == LockEvent.Type.EXTEND);
  }

  /** The {@code @WRITE} lines of {@code w} written after {@code nanos}. */
  static List<String> writesAfter(WorkerProcess w, long nanos) {
    List<String> out = new ArrayList<>();
    for (String line : w.lines("@WRITE")) {
      String[] f = line.split(" ", -1);
      if (Long.parseLong(f[3]) - nanos > 0) {
        out.add(f[1] + " " + f[2]);
      }
    }
    return out;
  }
}
