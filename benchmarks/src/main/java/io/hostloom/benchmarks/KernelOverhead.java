package io.hostloom.benchmarks;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import org.openjdk.jmh.profile.GCProfiler;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.Options;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;

/** Runs {@link KernelBenchmark} with JMH and the GC profiler (B/op) and collects the figures. */
public final class KernelOverhead {
  private KernelOverhead() {}

  /**
   * One benchmark's figures.
   *
   * @param benchmark method name in {@link KernelBenchmark}
   * @param nsPerOp mean time per operation
   * @param nsError JMH's 99.9 % confidence half-width
   * @param bytesPerOp bytes allocated per operation, all threads ({@code gc.alloc.rate.norm})
   */
  public record Row(String benchmark, double nsPerOp, double nsError, double bytesPerOp) {}

  /** What JMH ran and how. */
  public record Report(List<Row> rows, String settings) {
    public Row row(String benchmark) {
      for (Row r : rows) {
        if (r.benchmark().equals(benchmark)) {
          return r;
        }
      }
      throw new IllegalArgumentException("no benchmark " + benchmark);
    }
  }

  public static Report run(boolean quick) throws RunnerException {
    int warmups = quick ? 1 : 5;
    int iterations = quick ? 2 : 5;
    TimeValue time = quick ? TimeValue.milliseconds(300) : TimeValue.seconds(1);
    int forks = quick ? 1 : 2;
    Options options =
        new OptionsBuilder()
            .include(KernelBenchmark.class.getName() + "\\.")
            .forks(forks)
            .warmupIterations(warmups)
            .warmupTime(time)
            .measurementIterations(iterations)
            .measurementTime(time)
            .threads(1)
            .addProfiler(GCProfiler.class)
            .jvmArgsAppend("-Xms512m", "-Xmx512m", "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn")
            .shouldFailOnError(true)
            .build();
    Collection<RunResult> results = new Runner(options).run();
    List<Row> rows = new ArrayList<>();
    for (RunResult r : results) {
      String name = r.getParams().getBenchmark();
      name = name.substring(name.lastIndexOf('.') + 1);
      Result<?> primary = r.getPrimaryResult();
      Result<?> alloc = r.getSecondaryResults().get("gc.alloc.rate.norm");
      rows.add(
          new Row(
              name,
              primary.getScore(),
              primary.getScoreError(),
              alloc == null ? Double.NaN : alloc.getScore()));
    }
    String settings =
        String.format(
            java.util.Locale.ROOT,
            "JMH %s, mode avgt, %d fork(s) x (%d warm-up + %d measured iterations of %s), 1"
                + " thread, -Xms512m -Xmx512m, profiler gc",
            org.openjdk.jmh.util.Version.getPlainVersion(),
            forks,
            warmups,
            iterations,
            time);
    return new Report(rows, settings);
  }
}
