package io.hostloom.testkit.migration;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A rolling-migration run: the same scheduled job on several nodes, each a JVM of its own, all
 * firing at the same instants (an {@link OccurrenceSchedule}) and recording into one {@link
 * OccurrenceLedger}.
 *
 * <p>Test side: {@link #run} starts the nodes, waits until each printed {@code ready} (JVM start
 * and lock setup are then behind them), sends them one common start time, waits for them to end and
 * returns the ledger's {@link OccurrenceLedger.Verdict}. Node side: a {@code main} builds its lock
 * and calls {@link #serve}.
 */
public final class MigrationRun {
  /** Lead time between the start signal and the first occurrence. */
  private static final Duration LEAD = Duration.ofMillis(500);

  private MigrationRun() {}

  /**
   * Runs one node per entry of {@code nodes} (name, then the arguments of {@code main}) and returns
   * the verdict of {@code ledger}. Every node must exit 0 within {@code timeout}.
   */
  public static OccurrenceLedger.Verdict run(
      Class<?> main, Path dir, Path ledger, Map<String, List<String>> nodes, Duration timeout)
      throws InterruptedException {
    Map<String, JavaProcess> started = new LinkedHashMap<>();
    try {
      nodes.forEach(
          (name, args) ->
              started.put(name, JavaProcess.start(main, args, dir.resolve(name + ".stderr"))));
      for (Map.Entry<String, JavaProcess> e : started.entrySet()) {
        String line = e.getValue().readLine();
        if (!"ready".equals(line)) {
          throw new IllegalStateException(e.getKey() + " said \"" + line + "\", not ready");
        }
      }
      long start = System.currentTimeMillis() + LEAD.toMillis();
      started.values().forEach(p -> p.writeLine(Long.toString(start)));
      List<String> failures = new ArrayList<>();
      for (Map.Entry<String, JavaProcess> e : started.entrySet()) {
        int code = e.getValue().awaitExit(timeout);
        if (code != 0) {
          failures.add(e.getKey() + " exited " + code + ":\n" + e.getValue().stderrTail());
        }
      }
      if (!failures.isEmpty()) {
        throw new IllegalStateException(String.join("\n", failures));
      }
      return OccurrenceLedger.read(ledger);
    } finally {
      started.values().forEach(JavaProcess::close);
    }
  }

  /**
   * Runs two nodes, {@code old} and {@code new}, of {@code main} with the arguments {@code kind
   * node ledger periodMillis occurrences} followed by {@code extra} (read back by {@link
   * #serve(String[], OccurrenceSchedule.Guard)}), with a ledger in {@code dir}.
   */
  public static OccurrenceLedger.Verdict pair(
      Class<?> main,
      Path dir,
      String oldKind,
      String newKind,
      Duration period,
      int occurrences,
      List<String> extra)
      throws InterruptedException {
    Path ledger = dir.resolve("ledger");
    Map<String, List<String>> nodes = new LinkedHashMap<>();
    for (String[] node : new String[][] {{"old", oldKind}, {"new", newKind}}) {
      List<String> args = new ArrayList<>();
      args.addAll(
          List.of(
              node[1],
              node[0],
              ledger.toString(),
              Long.toString(period.toMillis()),
              Integer.toString(occurrences)));
      args.addAll(extra);
      nodes.put(node[0], args);
    }
    return run(main, dir, ledger, nodes, period.multipliedBy(occurrences).plusSeconds(60));
  }

  /** The node side of {@link #pair}: {@code args} as {@link #pair} passes them. */
  public static void serve(String[] args, OccurrenceSchedule.Guard guard) throws Exception {
    serve(
        args[1],
        Path.of(args[2]),
        Duration.ofMillis(Long.parseLong(args[3])),
        Integer.parseInt(args[4]),
        guard);
  }

  /**
   * The node side, once its lock is built: prints {@code ready}, reads the start time from stdin,
   * runs the schedule through {@code guard} and prints {@code ran <count>}.
   */
  public static void serve(
      String node, Path ledger, Duration period, int occurrences, OccurrenceSchedule.Guard guard)
      throws Exception {
    System.out.println("ready");
    System.out.flush();
    BufferedReader stdin =
        new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    String line = stdin.readLine();
    if (line == null) {
      throw new IllegalStateException("no start time on stdin");
    }
    int ran =
        OccurrenceSchedule.run(
            Long.parseLong(line.trim()), period, occurrences, node, ledger, guard);
    System.out.println("ran " + ran);
    System.out.flush();
  }
}
