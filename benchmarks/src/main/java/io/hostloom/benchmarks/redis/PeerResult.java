package io.hostloom.benchmarks.redis;

import io.hostloom.benchmarks.Latency;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.HdrHistogram.Histogram;

/** Everything measured for one peer, accumulated over the rounds. */
public final class PeerResult {
  final String name;
  final List<String> configuration;
  final String waitingMode;
  final String keys;
  final boolean diagnostic;
  String clientCommands = "n/a";
  double serverMicros = Double.NaN; // server time per uncontended cycle (INFO commandstats)
  String scriptCommands = "n/a";
  double roundTrips = Double.NaN;
  final Histogram uncontended = Latency.newHistogram();
  long uncontendedFailures;
  final Map<Integer, Histogram> cycleUnderLoad = new TreeMap<>();
  final Map<Integer, long[]> throughputCounts = new TreeMap<>(); // granted, busy, errors, nanos
  final Map<Integer, List<Double>> throughputRounds = new TreeMap<>();
  final Histogram handOff = Latency.newHistogram();
  long handOffs;
  long handOffTimeouts;
  long handOffErrors;
  boolean handOffMeasured;

  PeerResult(LockPeer peer) {
    this.name = peer.name();
    this.configuration = peer.configuration();
    this.waitingMode = peer.waitingMode();
    this.keys = peer.describeKeys("<key>");
    this.diagnostic = peer.diagnostic();
  }

  void addThroughput(int threads, Workloads.Counts c, Histogram cycles) {
    cycleUnderLoad.computeIfAbsent(threads, t -> Latency.newHistogram()).add(cycles);
    long[] sum = throughputCounts.computeIfAbsent(threads, t -> new long[4]);
    sum[0] += c.granted();
    sum[1] += c.busy();
    sum[2] += c.errors();
    sum[3] += c.elapsedNanos();
    throughputRounds
        .computeIfAbsent(threads, t -> new ArrayList<>())
        .add(c.granted() / (c.elapsedNanos() / 1e9));
  }

  public String name() {
    return name;
  }

  public List<String> configuration() {
    return configuration;
  }

  public String waitingMode() {
    return waitingMode;
  }

  /** Whether this row is a diagnostic (HostLoom's parts), not a peer. */
  public boolean diagnostic() {
    return diagnostic;
  }

  public String keys() {
    return keys;
  }

  /** Server time per uncontended cycle, µs: every command's time as INFO commandstats counts it. */
  public double serverMicros() {
    return serverMicros;
  }

  public String clientCommands() {
    return clientCommands;
  }

  public String scriptCommands() {
    return scriptCommands;
  }

  public double roundTrips() {
    return roundTrips;
  }

  public Latency uncontended() {
    return Latency.of(uncontended);
  }

  public long uncontendedFailures() {
    return uncontendedFailures;
  }

  /** Granted cycles per second over all rounds; NaN when not measured. */
  public double throughput(int threads) {
    long[] c = throughputCounts.get(threads);
    return c == null || c[3] == 0 ? Double.NaN : c[0] / (c[3] / 1e9);
  }

  /** Per-round throughputs, for the spread. */
  public List<Double> throughputRounds(int threads) {
    return throughputRounds.getOrDefault(threads, List.of());
  }

  /** Share of attempts that found the key busy. */
  public double busyShare(int threads) {
    long[] c = throughputCounts.get(threads);
    return c == null || c[0] + c[1] == 0 ? Double.NaN : (double) c[1] / (c[0] + c[1]);
  }

  public long throughputErrors(int threads) {
    long[] c = throughputCounts.get(threads);
    return c == null ? 0 : c[2];
  }

  public Latency cycleUnderLoad(int threads) {
    Histogram h = cycleUnderLoad.get(threads);
    return h == null ? Latency.of(Latency.newHistogram()) : Latency.of(h);
  }

  public boolean handOffMeasured() {
    return handOffMeasured;
  }

  public Latency handOff() {
    return Latency.of(handOff);
  }

  public long handOffTimeouts() {
    return handOffTimeouts;
  }

  public long handOffErrors() {
    return handOffErrors;
  }
}
