package io.hostloom.benchmarks.redis;

import io.hostloom.benchmarks.Latency;
import io.hostloom.benchmarks.Pause;
import io.hostloom.redis.RedisServerProcess;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.HdrHistogram.Histogram;
import org.springframework.integration.redis.util.RedisLockRegistry.RedisLockType;

/**
 * The side-by-side run on one real Redis: HostLoom, Redisson, Spring Integration, ShedLock and the
 * two-round-trip Lettuce floor, each on the same workloads, interleaved round by round. Plain
 * {@code main}: {@code java -cp benchmarks/target/benchmarks.jar
 * io.hostloom.benchmarks.redis.RedisSideBySide [--quick]} prints a summary; {@code BenchmarkMain}
 * uses {@link #run} to write docs/benchmarks.md. {@code -Dhostloom.bench.peers=HostLoom,Lettuce
 * floor} keeps only the named peers (for investigations; the report expects all of them).
 */
public final class RedisSideBySide {
  /** A histogram nobody reads, for the unrecorded passes. */
  private static final Histogram SINK = Latency.newHistogram();

  private RedisSideBySide() {}

  /** What the run measured. */
  public record Report(
      String redisVersion,
      ClientSettings settings,
      RedisPlan plan,
      List<PeerResult> peers,
      long elapsedNanos,
      WakeupScaling.Result wakeups) {}

  public static void main(String[] args) throws Exception {
    System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", "warn");
    boolean quick = List.of(args).contains("--quick");
    Report r = run(quick ? RedisPlan.quick() : RedisPlan.full());
    for (PeerResult p : r.peers()) {
      System.out.printf(
          Locale.ROOT,
          "%-30s uncontended p50 %8.1f us p99 %8.1f us | 16t %8.0f/s | 64t %8.0f/s | hand-off"
              + " p50 %8.1f us p99 %8.1f us | rt %s | errors %d/%d/%d | %s%n",
          p.name(),
          p.uncontended().p50(),
          p.uncontended().p99(),
          p.throughput(16),
          p.throughput(64),
          p.handOff().p50(),
          p.handOff().p99(),
          p.clientCommands(),
          p.throughputErrors(16) + p.throughputErrors(64),
          p.handOffTimeouts(),
          p.handOffErrors(),
          p.waitingMode());
    }
    System.exit(0);
  }

  /**
   * Starts Redis (the Redis module's test launcher), runs every peer through {@code plan}, stops
   * Redis.
   */
  public static Report run(RedisPlan plan) throws Exception {
    long t0 = System.nanoTime();
    try (RedisServerProcess server = RedisServerProcess.startNew()) {
      ClientSettings s = ClientSettings.standard("127.0.0.1", server.port());
      List<LockPeer> peers = new ArrayList<>();
      try {
        peers.add(new HostLoomPeer(s));
        peers.add(new RedissonPeer(s));
        peers.add(new SpringIntegrationPeer(s, RedisLockType.SPIN_LOCK));
        peers.add(new SpringIntegrationPeer(s, RedisLockType.PUB_SUB_LOCK));
        peers.add(new ShedLockPeer(s));
        peers.add(new LettuceFloorPeer(s));
        peers.add(new HostLoomBackendPeer(s));
        peers.add(new HostLoomPeer(s, true));
        String only = System.getProperty("hostloom.bench.peers", "");
        if (!only.isBlank()) {
          List<String> names = List.of(only.split(",", -1));
          for (LockPeer p : List.copyOf(peers)) {
            if (!names.contains(p.name())) {
              peers.remove(p);
              p.close();
            }
          }
        }
        List<PeerResult> results = new ArrayList<>();
        for (LockPeer p : peers) {
          results.add(new PeerResult(p));
        }
        calibrate(s, peers, results);
        log("warm-up pass");
        runRounds(plan.warmUp(), peers, null, "w");
        runRounds(plan, peers, results, "r");
        for (LockPeer p : peers) {
          p.close();
        }
        peers.clear();
        log("wake-ups over two JVMs, first wait, memory");
        WakeupScaling.Result w = WakeupScaling.run(s.host(), s.port(), plan.rounds() < 2);
        return new Report(server.version(), s, plan, results, System.nanoTime() - t0, w);
      } finally {
        for (LockPeer p : peers) {
          try {
            p.close();
          } catch (RuntimeException e) {
            log("closing " + p.name() + " failed: " + e);
          }
        }
      }
    }
  }

  /** Counts each peer's commands per uncontended cycle with MONITOR (not timed). */
  private static void calibrate(ClientSettings s, List<LockPeer> peers, List<PeerResult> results)
      throws Exception {
    final int cycles = 50;
    for (int i = 0; i < peers.size(); i++) {
      LockPeer p = peers.get(i);
      String key = "p" + i + ":calibration";
      java.util.Set<String> sent;
      Workloads.uncontended(p, key, 5, Duration.ofSeconds(10), SINK);
      try (RedisMonitor m = new RedisMonitor(s.host(), s.port())) {
        Pause.millis(100);
        Histogram h = Latency.newHistogram();
        Workloads.uncontended(p, key, cycles, Duration.ofSeconds(10), h);
        Pause.millis(300);
        PeerResult r = results.get(i);
        r.clientCommands = m.clientPerCycle(h.getTotalCount());
        r.scriptCommands = m.scriptPerCycle(h.getTotalCount());
        r.roundTrips = m.roundTripsPerCycle(h.getTotalCount());
        sent = m.clientCommandNames();
      }
      results.get(i).serverMicros = serverMicrosPerCycle(s, p, key, sent);
      log(p.name() + ": " + results.get(i).clientCommands + " per cycle");
    }
  }

  // server time of 200 uncontended cycles, without MONITOR (which slows every command it sees):
  // the time of the commands the client sent (a script's time includes the commands inside it)
  private static double serverMicrosPerCycle(
      ClientSettings s, LockPeer p, String key, java.util.Set<String> sent) throws Exception {
    io.lettuce.core.RedisClient c = io.lettuce.core.RedisClient.create(s.uri());
    try (var conn = c.connect()) {
      var cmd = conn.sync();
      cmd.configResetstat();
      int cycles = 200;
      Workloads.uncontended(p, key, cycles, Duration.ofSeconds(20), Latency.newHistogram());
      long usec = 0;
      for (String line : cmd.info("commandstats").split("\r\n", -1)) {
        if (line.startsWith("cmdstat_") && sent.contains(line.substring(8, line.indexOf(':')))) {
          int i = line.indexOf("usec=") + 5;
          usec += Long.parseLong(line.substring(i, line.indexOf(',', i)));
        }
      }
      return usec / (double) cycles;
    } finally {
      c.shutdown();
    }
  }

  private static void runRounds(
      RedisPlan plan, List<LockPeer> peers, List<PeerResult> results, String tag) throws Exception {
    int n = peers.size();
    for (int round = 0; round < plan.rounds(); round++) {
      String rt = tag + round;
      // rotate the order every round so no peer always runs first (cold) or last
      List<Integer> order = new ArrayList<>();
      for (int k = 0; k < n; k++) {
        order.add((k + round) % n);
      }
      // short blocks, peers alternating block by block: a load spike hits every peer alike
      int blocks = Math.max(1, plan.uncontendedCycles() / RedisPlan.UNCONTENDED_BLOCK);
      Duration blockBudget = plan.uncontendedBudget().dividedBy(blocks);
      for (int b = 0; b < blocks; b++) {
        for (int i : order) {
          LockPeer p = peers.get(i);
          if (isPubSubVariant(p)) {
            continue; // measured on the hand-off only: its lock/unlock is SPIN_LOCK's
          }
          Histogram h = results == null ? SINK : results.get(i).uncontended;
          long failed =
              Workloads.uncontended(
                  p, "p" + i + ":u:" + rt, plan.uncontendedCycles() / blocks, blockBudget, h);
          if (results != null) {
            results.get(i).uncontendedFailures += failed;
          }
        }
      }
      log(rt + " uncontended done");
      for (int threads : plan.throughputThreads()) {
        for (int i : order) {
          LockPeer p = peers.get(i);
          if (isPubSubVariant(p)) {
            continue;
          }
          Histogram h = Latency.newHistogram();
          Workloads.Counts c =
              Workloads.throughput(
                  p,
                  "p" + i + ":t" + threads + ":" + rt,
                  threads,
                  plan.throughputKeys(),
                  plan.throughputWindow(),
                  h);
          if (results != null) {
            results.get(i).addThroughput(threads, c, h);
          }
          log(
              String.format(
                  Locale.ROOT,
                  "%s throughput %d threads %s: %.0f/s",
                  rt,
                  threads,
                  p.name(),
                  c.granted() / (c.elapsedNanos() / 1e9)));
        }
      }
      for (int i : order) {
        LockPeer p = peers.get(i);
        if (p instanceof LettuceFloorPeer || p.diagnostic()) {
          continue; // no waiting of its own: no hand-off figure
        }
        Histogram h = results == null ? SINK : results.get(i).handOff;
        Workloads.Counts c =
            Workloads.handOff(
                p,
                "p" + i + ":h:" + rt,
                plan.handOffThreads(),
                plan.handOffWindow(),
                plan.maxHandOffs(),
                plan.maxWait(),
                h);
        if (results != null) {
          PeerResult r = results.get(i);
          r.handOffMeasured = true;
          r.handOffs += c.granted();
          r.handOffTimeouts += c.busy();
          r.handOffErrors += c.errors();
        }
        log(rt + " hand-off " + p.name() + ": " + c.granted() + " hand-offs");
      }
    }
  }

  private static boolean isPubSubVariant(LockPeer p) {
    return p instanceof SpringIntegrationPeer sp && sp.isPubSub();
  }

  static void log(String message) {
    System.err.println("[redis] " + message);
  }
}
