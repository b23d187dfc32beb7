package io.hostloom.benchmarks;

import io.hostloom.benchmarks.faces.StorageFaces;
import io.hostloom.benchmarks.redis.RedisPlan;
import io.hostloom.benchmarks.redis.RedisSideBySide;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Runs every benchmark and writes {@code docs/benchmarks.md} and {@code docs/benchmarks.png}.
 *
 * <pre>
 * java -jar benchmarks/target/benchmarks.jar [--quick] [--only=kernel,redis,faces,scaling,primitives] [--out=docs]
 *     [--max-load=2.5] [--max-load-wait=3600] [--command="the command line, for the report"]
 * </pre>
 *
 * {@code --only} takes parts: {@code kernel}, {@code redis}, {@code faces} (every storage backend)
 * or single storage backends: {@code azure}, {@code postgres}, {@code etcd}, {@code zookeeper},
 * {@code mariadb}.
 *
 * <p>{@code --quick} runs each part for a few seconds to check the harness (figures meaningless).
 * {@code --max-load} waits (polling every 30 s, at most {@code --max-load-wait} seconds) until the
 * 1-minute load average is below the value before starting, then records the load it started at.
 */
public final class BenchmarkMain {
  private BenchmarkMain() {}

  public static void main(String[] args) throws Exception {
    System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", "warn");
    System.setProperty("java.awt.headless", "true");
    boolean quick = false;
    Set<String> parts =
        new LinkedHashSet<>(List.of("kernel", "redis", "faces", "scaling", "primitives"));
    Path out = Path.of("docs");
    double maxLoad = Double.NaN;
    long maxLoadWait = 3600;
    String command = "java -jar benchmarks/target/benchmarks.jar " + String.join(" ", args);
    for (String a : args) {
      if (a.equals("--quick")) {
        quick = true;
      } else if (a.startsWith("--only=")) {
        parts = new LinkedHashSet<>(List.of(a.substring(7).split(",")));
        for (String p : parts) {
          if (!List.of("kernel", "redis", "faces", "scaling", "primitives").contains(p)
              && !StorageFaces.backends().contains(p)) {
            throw new IllegalArgumentException(
                "unknown part "
                    + p
                    + "; parts: kernel, redis, faces, scaling, primitives, "
                    + StorageFaces.backends());
          }
        }
      } else if (a.startsWith("--out=")) {
        out = Path.of(a.substring(6));
      } else if (a.startsWith("--max-load=")) {
        maxLoad = Double.parseDouble(a.substring(11));
      } else if (a.startsWith("--max-load-wait=")) {
        maxLoadWait = Long.parseLong(a.substring(16));
      } else if (a.startsWith("--command=")) {
        command = a.substring(10);
      } else {
        throw new IllegalArgumentException("unknown argument " + a);
      }
    }
    if (!Double.isNaN(maxLoad)) {
      waitForLoad(maxLoad, maxLoadWait);
    }
    Report.Run run = new Report.Run();
    run.command = command;
    run.quick = quick;
    run.started = Instant.now();
    run.loadAtStart = Machine.loadAverage();
    run.machine = Machine.describe();
    if (parts.contains("kernel")) {
      log("kernel: JMH");
      run.kernel = KernelOverhead.run(quick);
      log("kernel: allocation profile");
      run.allocation = AllocationProfile.run(quick, List.of("tryAcquireClose", "executeWithLock"));
    }
    if (parts.contains("redis")) {
      log("redis: side by side");
      run.redis = RedisSideBySide.run(quick ? RedisPlan.quick() : RedisPlan.full());
    }
    Set<String> backends = new LinkedHashSet<>();
    for (String b : StorageFaces.backends()) {
      if (parts.contains("faces") || parts.contains(b)) {
        backends.add(b);
      }
    }
    if (!backends.isEmpty()) {
      log("faces: " + String.join(", ", backends));
      List<String> failures = new ArrayList<>();
      run.faces =
          StorageFaces.run(
              quick ? StorageFaces.Plan.quick() : StorageFaces.Plan.full(), backends, failures);
      run.notes.addAll(failures);
    }
    if (parts.contains("scaling")) {
      log("scaling: held handles, PostgreSQL rows");
      run.scaling = Scaling.run(quick);
    }
    if (parts.contains("primitives")) {
      log("primitives: semaphores and reader-writer locks, Redis and ZooKeeper");
      run.primitives =
          io.hostloom.benchmarks.primitives.Primitives.run(
              quick
                  ? io.hostloom.benchmarks.primitives.Primitives.Plan.quick()
                  : io.hostloom.benchmarks.primitives.Primitives.Plan.full());
    }
    run.loadAtEnd = Machine.loadAverage();
    run.elapsed = Duration.between(run.started, Instant.now());
    Files.createDirectories(out);
    Report.write(run, out.resolve("benchmarks.md"), out.resolve("benchmarks.png"));
    log("wrote " + out.resolve("benchmarks.md") + " and " + out.resolve("benchmarks.png"));
    System.exit(0);
  }

  private static void waitForLoad(double maxLoad, long maxSeconds) throws InterruptedException {
    long deadline = System.nanoTime() + maxSeconds * 1_000_000_000L;
    while (true) {
      double load = Machine.loadAverage1();
      if (Double.isNaN(load) || load < maxLoad) {
        return;
      }
      if (System.nanoTime() - deadline >= 0) {
        log(
            String.format(
                Locale.ROOT,
                "load %.2f still >= %.2f after %d s: starting anyway",
                load,
                maxLoad,
                maxSeconds));
        return;
      }
      log(String.format(Locale.ROOT, "load %.2f >= %.2f: waiting", load, maxLoad));
      Thread.sleep(30_000);
    }
  }

  static void log(String message) {
    System.err.println("[bench] " + message);
  }
}
