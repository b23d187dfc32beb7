package io.hostloom.benchmarks;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedStackTrace;
import jdk.jfr.consumer.RecordedThread;
import jdk.jfr.consumer.RecordingFile;
import org.openjdk.jmh.profile.GCProfiler;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.Options;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;

/**
 * What a {@link KernelBenchmark} allocates per operation: the benchmark runs in its own JMH fork
 * (compiled as in the measurement) with a small fixed TLAB and a JFR recording of TLAB allocation
 * events, which carry each sampled object's exact size and stack. Every operation allocates the
 * same sequence of objects, so the sampled shares alias with the TLAB size and say nothing about
 * counts; but over hundreds of thousands of samples nearly every allocation site shows up. The
 * inventory lists each site once with its exact size; comparing the sum with JMH's B/op shows how
 * complete it is (a site that allocates several objects of one class per operation, such as several
 * exceptions' stack-trace arrays, is listed once).
 */
public final class AllocationProfile {
  private static final String JFC =
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<configuration version=\"2.0\">\n"
          + "<event name=\"jdk.ObjectAllocationInNewTLAB\"><setting name=\"enabled\">true</setting>"
          + "<setting name=\"stackTrace\">true</setting></event>\n"
          + "<event name=\"jdk.ObjectAllocationOutsideTLAB\"><setting name=\"enabled\">true</setting>"
          + "<setting name=\"stackTrace\">true</setting></event>\n</configuration>\n";

  private AllocationProfile() {}

  /**
   * One allocation site.
   *
   * @param backend whether the innermost HostLoom frame is the in-memory backend or the SPI's
   *     records (the floor's own allocations) rather than the kernel
   * @param site innermost {@code io.hostloom} frame ({@code Class.method:line}), with the
   *     allocating method when that is a JDK one
   * @param allocated the allocated class
   * @param objectBytes the object's size in bytes (median of its samples)
   * @param samples how often it was sampled
   */
  public record Site(
      boolean backend, String site, String allocated, long objectBytes, long samples) {}

  /** The inventory of one benchmark, and JMH's B/op in the same fork. */
  public record Profile(String benchmark, double bytesPerOp, long samples, List<Site> sites) {
    /** Bytes of the sites, each once, of the kernel ({@code backend == false}) or backend. */
    public long sum(boolean backend) {
      long n = 0;
      for (Site s : sites) {
        if (s.backend() == backend) {
          n += s.objectBytes();
        }
      }
      return n;
    }
  }

  /** Profiles each of {@code benchmarks} (method names of {@link KernelBenchmark}). */
  public static List<Profile> run(boolean quick, List<String> benchmarks)
      throws IOException, RunnerException {
    Path dir = Files.createTempDirectory("hostloom-alloc");
    Path jfc = dir.resolve("alloc.jfc");
    Files.writeString(jfc, JFC, StandardCharsets.UTF_8);
    int warmupSeconds = quick ? 1 : 3;
    int recordSeconds = quick ? 2 : 4;
    List<Profile> out = new ArrayList<>();
    for (String b : benchmarks) {
      Path file = dir.resolve(b + ".jfr");
      // JVM start + warm-up, then record; the measured iteration outlasts the recording
      String jfr =
          "-XX:StartFlightRecording=delay="
              + (warmupSeconds + 3)
              + "s,duration="
              + recordSeconds
              + "s,filename="
              + file
              + ",settings="
              + jfc;
      Options options =
          new OptionsBuilder()
              .include(KernelBenchmark.class.getName() + "\\." + b + "$")
              .forks(1)
              .warmupIterations(1)
              .warmupTime(TimeValue.seconds(warmupSeconds))
              .measurementIterations(1)
              .measurementTime(TimeValue.seconds(recordSeconds + 4))
              .addProfiler(GCProfiler.class)
              .jvmArgsAppend(
                  "-Xms512m",
                  "-Xmx512m",
                  "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn",
                  // small fixed TLABs: many samples, so that every site is seen
                  "-XX:-ResizeTLAB",
                  "-XX:TLABSize=8072",
                  jfr)
              .build();
      Collection<RunResult> results = new Runner(options).run();
      double bytesPerOp = Double.NaN;
      for (RunResult r : results) {
        Result<?> alloc = r.getSecondaryResults().get("gc.alloc.rate.norm");
        if (alloc != null) {
          bytesPerOp = alloc.getScore();
        }
      }
      out.add(summarize(b, file, bytesPerOp));
    }
    WorkDir.delete(dir); // the recordings are tens of megabytes
    return out;
  }

  private static final class Acc {
    long samples;
    final List<Long> sizes = new ArrayList<>();
  }

  private static Profile summarize(String benchmark, Path file, double bytesPerOp)
      throws IOException {
    Map<String, Acc> bySite = new HashMap<>();
    long total = 0;
    for (RecordedEvent e : RecordingFile.readAllEvents(file)) {
      String type = e.getEventType().getName();
      if (!type.equals("jdk.ObjectAllocationInNewTLAB")
          && !type.equals("jdk.ObjectAllocationOutsideTLAB")) {
        continue;
      }
      RecordedThread t = e.getThread("eventThread");
      if (t == null || t.getJavaName() == null || !t.getJavaName().contains("jmh-worker")) {
        continue; // only the benchmark thread: B/op is per operation of that thread
      }
      String key = site(e.getStackTrace()) + "\u0000" + e.getClass("objectClass").getName();
      Acc a = bySite.computeIfAbsent(key, k -> new Acc());
      a.samples++;
      a.sizes.add(e.getLong("allocationSize"));
      total++;
    }
    List<Site> sites = new ArrayList<>();
    for (Map.Entry<String, Acc> en : bySite.entrySet()) {
      String[] parts = en.getKey().split("\u0000", -1);
      Acc a = en.getValue();
      a.sizes.sort(Comparator.naturalOrder());
      boolean backend =
          parts[0].startsWith("InMemoryLockBackend")
              || parts[0].startsWith("AcquireOutcome")
              || parts[0].startsWith("LeaseRecord");
      sites.add(new Site(backend, parts[0], parts[1], a.sizes.get(a.sizes.size() / 2), a.samples));
    }
    sites.sort(
        Comparator.comparing(Site::backend)
            .thenComparing(Comparator.comparingLong(Site::objectBytes).reversed())
            .thenComparing(Site::site));
    return new Profile(benchmark, bytesPerOp, total, sites);
  }

  private static String site(RecordedStackTrace st) {
    if (st == null) {
      return "(no stack)";
    }
    String top = null;
    for (RecordedFrame f : st.getFrames()) {
      if (!f.isJavaFrame()) {
        continue;
      }
      String type = f.getMethod().getType().getName();
      String here = simple(type) + "." + f.getMethod().getName() + ":" + f.getLineNumber();
      if (top == null) {
        top = here;
      }
      if (type.startsWith("io.hostloom.locking")) {
        return here + (here.equals(top) ? "" : " via " + top);
      }
    }
    return top == null ? "(no java frame)" : top;
  }

  private static String simple(String type) {
    return type.substring(type.lastIndexOf('.') + 1);
  }
}
