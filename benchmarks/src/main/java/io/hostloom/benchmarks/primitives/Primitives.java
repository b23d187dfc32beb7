package io.hostloom.benchmarks.primitives;

import io.hostloom.benchmarks.Latency;
import io.hostloom.benchmarks.Machine;
import io.hostloom.benchmarks.redis.ClientSettings;
import io.hostloom.benchmarks.redis.RedisMonitor;
import io.hostloom.locking.LockOptions;
import io.hostloom.locking.LockingOptions;
import io.hostloom.locking.rwlock.DistributedReadWriteLock;
import io.hostloom.locking.rwlock.ReadWriteHandle;
import io.hostloom.locking.semaphore.DistributedSemaphore;
import io.hostloom.locking.semaphore.DistributedSemaphores;
import io.hostloom.locking.semaphore.Permits;
import io.hostloom.redis.RedisLockBackend;
import io.hostloom.redis.RedisServerProcess;
import io.hostloom.zookeeper.ZooKeeperLockBackend;
import io.hostloom.zookeeper.ZooKeeperTestServer;
import io.lettuce.core.RedisClient;
import io.lettuce.core.resource.ClientResources;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import org.HdrHistogram.Histogram;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.framework.recipes.locks.InterProcessMutex;
import org.apache.curator.framework.recipes.locks.InterProcessReadWriteLock;
import org.apache.curator.framework.recipes.locks.InterProcessSemaphoreV2;
import org.apache.curator.framework.recipes.locks.Lease;
import org.apache.curator.retry.RetryOneTime;
import org.apache.zookeeper.CountingClientCnxnSocket;
import org.redisson.Redisson;
import org.redisson.api.RPermitExpirableSemaphore;
import org.redisson.api.RReadWriteLock;
import org.redisson.api.RSemaphore;
import org.redisson.api.RedissonClient;
import org.redisson.config.Config;

/**
 * Semaphores and reader-writer locks side by side: HostLoom's {@link DistributedSemaphore} and
 * {@link DistributedReadWriteLock} against Redisson's {@code RSemaphore}, {@code
 * RPermitExpirableSemaphore} and {@code RReadWriteLock} on one Redis, and against Curator's {@code
 * InterProcessSemaphoreV2} and {@code InterProcessReadWriteLock} on one ZooKeeper (TestingServer).
 * Peers of one workload run in short blocks, their order rotated every round, so a load spike hits
 * every peer alike. Every loop is bounded in count and time. Benchmarks only.
 */
public final class Primitives {
  private Primitives() {}

  static final int PERMITS = 8;
  static final int THREADS = 16;
  static final int RW_NAMES = 4;
  static final int WRITE_PERCENT = 10;
  static final Duration LEASE = Duration.ofSeconds(30);
  static final Duration WAIT = Duration.ofSeconds(5);

  /** How long each part runs. */
  public record Plan(int rounds, int uncontendedCycles, Duration throughputBlock) {
    public static Plan full() {
      return new Plan(2, 200, Duration.ofSeconds(3));
    }

    public static Plan quick() {
      return new Plan(1, 20, Duration.ofMillis(500));
    }
  }

  /** One acquire + release; {@code false} when not granted within the wait. */
  interface Cycle {
    boolean run(boolean write, String name) throws Exception;
  }

  /** A peer of one workload. */
  static final class Peer {
    final String name;
    final String config;
    final Cycle cycle;
    final LongSupplier roundTrips; // ZooKeeper: the client's counter; Redis: null (MONITOR)
    final Histogram uncontended = Latency.newHistogram();
    long cycles;
    long failures;
    long nanos;
    long contendedRoundTrips;
    long contendedCycles;
    double uncontendedRt = Double.NaN;
    String commands = "";

    Peer(String name, String config, Cycle cycle, LongSupplier roundTrips) {
      this.name = name;
      this.config = config;
      this.cycle = cycle;
      this.roundTrips = roundTrips;
    }

    double throughput() {
      return nanos == 0 ? Double.NaN : cycles * 1e9 / nanos;
    }

    double contendedRt() {
      return contendedCycles == 0 ? Double.NaN : (double) contendedRoundTrips / contendedCycles;
    }
  }

  /** One workload's rows. */
  public record Table(String store, String workload, List<Peer> peers) {}

  /** The section's figures. */
  public record Result(Plan plan, String redisVersion, String zkVersion, List<Table> tables) {
    public String markdown() {
      return PrimitivesReport.markdown(this);
    }
  }

  public static Result run(Plan plan) throws Exception {
    List<Table> tables = new ArrayList<>();
    String redisVersion;
    try (RedisServerProcess server = RedisServerProcess.startNew()) {
      redisVersion = server.version();
      redis(plan, ClientSettings.standard("127.0.0.1", server.port()), tables);
    }
    String zkVersion = org.apache.zookeeper.Version.getFullVersion().split("-", 2)[0];
    try (ZooKeeperTestServer zk = ZooKeeperTestServer.startNew()) {
      zookeeper(plan, zk.connectString(), tables);
    }
    return new Result(plan, redisVersion, zkVersion, tables);
  }

  // ------------------------------------------------------------------ Redis

  private static void redis(Plan plan, ClientSettings s, List<Table> tables) throws Exception {
    ClientResources resources = s.lettuceResources();
    RedisClient client = s.lettuceClient(resources);
    RedisLockBackend backend =
        RedisLockBackend.builder()
            .client(client)
            .uri(s.uri())
            .commandTimeout(s.commandTimeout())
            .build();
    Config config = new Config();
    config.setNettyThreads(s.ioThreads());
    config.setThreads(s.ioThreads());
    config
        .useSingleServer()
        .setAddress(s.uri())
        .setTimeout((int) s.commandTimeout().toMillis())
        .setConnectTimeout((int) s.connectTimeout().toMillis())
        .setConnectionPoolSize(64)
        .setConnectionMinimumIdleSize(THREADS);
    RedissonClient redisson = Redisson.create(config);
    try (DistributedSemaphores sems = DistributedSemaphores.create(options(), backend);
        DistributedReadWriteLock rw = DistributedReadWriteLock.create(options(), backend)) {
      String redissonVersion = "Redisson " + Machine.version("org.redisson", "redisson");
      String redissonClient =
          redissonVersion
              + " `useSingleServer()`, timeout 5000 ms, pool 64 (min idle 16), nettyThreads "
              + s.ioThreads()
              + ", other settings default";
      String hostloomClient =
          "`RedisLockBackend.builder().client(c).uri(..).commandTimeout(5 s).build()` (Lettuce,"
              + " one connection, defaults: fencing tokens and release notifications on),"
              + " `LockingOptions.builder().namespace(\"prim\").defaultLease(30 s).build()`";
      RSemaphore rsem = redisson.getSemaphore("prim:rsem");
      rsem.delete();
      rsem.trySetPermits(PERMITS);
      RPermitExpirableSemaphore xsem = redisson.getPermitExpirableSemaphore("prim:xsem");
      xsem.delete();
      xsem.trySetPermits(PERMITS);
      DistributedSemaphore hsem = sems.semaphore("hsem", PERMITS);
      List<Peer> semPeers =
          List.of(
              new Peer(
                  "HostLoom DistributedSemaphore",
                  hostloomClient
                      + "; `DistributedSemaphores.create(..).semaphore(\"hsem\", 8)`, `acquire(1,"
                      + " lease 30 s, maxWait 0 or 5 s)` + `close()`",
                  (w, n) -> hostloomPermit(hsem),
                  null),
              new Peer(
                  "Redisson RSemaphore",
                  redissonClient
                      + "; `getSemaphore(..)`, `trySetPermits(8)`, `tryAcquire(1, wait 0 or 5 s)` +"
                      + " `release()` (no lease: a crashed holder's permit is never returned)",
                  (w, n) -> {
                    if (!rsem.tryAcquire(1, WAIT)) {
                      return false;
                    }
                    rsem.release();
                    return true;
                  },
                  null),
              new Peer(
                  "Redisson RPermitExpirableSemaphore",
                  redissonClient
                      + "; `getPermitExpirableSemaphore(..)`, `trySetPermits(8)`, `tryAcquire(wait"
                      + " 5 s, lease 30 s)` + `release(id)`",
                  (w, n) -> {
                    String id = xsem.tryAcquire(WAIT.toMillis(), 30_000, TimeUnit.MILLISECONDS);
                    if (id == null) {
                      return false;
                    }
                    xsem.release(id);
                    return true;
                  },
                  null));
      List<Peer> rwPeers =
          List.of(
              new Peer(
                  "HostLoom DistributedReadWriteLock",
                  hostloomClient
                      + "; `DistributedReadWriteLock.create(..)` (8 reader slots, the default),"
                      + " `acquireRead/acquireWrite(name, lease 30 s, maxWait 5 s)` + `close()`",
                  (w, n) -> hostloomRw(rw, w, n),
                  null),
              new Peer(
                  "Redisson RReadWriteLock",
                  redissonClient
                      + "; `getReadWriteLock(name).readLock()/writeLock().tryLock(5 s, 30 s)` +"
                      + " `unlock()` (explicit lease: no watchdog)",
                  (w, n) -> {
                    RReadWriteLock l = redisson.getReadWriteLock("prim:rrw:" + n);
                    var lock = w ? l.writeLock() : l.readLock();
                    if (!lock.tryLock(WAIT.toMillis(), 30_000, TimeUnit.MILLISECONDS)) {
                      return false;
                    }
                    lock.unlock();
                    return true;
                  },
                  null));
      log("redis: semaphores");
      measure(plan, semPeers, false, s);
      tables.add(new Table("Redis", "semaphore", semPeers));
      log("redis: reader-writer locks");
      measure(plan, rwPeers, true, s);
      tables.add(new Table("Redis", "read-write", rwPeers));
    } finally {
      redisson.shutdown();
      backend.close();
      client.shutdown();
      resources.shutdown();
    }
  }

  // ------------------------------------------------------------------ ZooKeeper

  private static void zookeeper(Plan plan, String connect, List<Table> tables) throws Exception {
    CountingClientCnxnSocket.Counts hl = new CountingClientCnxnSocket.Counts();
    CountingClientCnxnSocket.Counts cu = new CountingClientCnxnSocket.Counts();
    ZooKeeperLockBackend backend =
        CountingClientCnxnSocket.countingInto(
            hl,
            () -> ZooKeeperLockBackend.builder().connectString(connect).rootPath("/prim").build());
    CuratorFramework curator =
        CountingClientCnxnSocket.countingInto(
            cu,
            () -> {
              CuratorFramework c =
                  CuratorFrameworkFactory.newClient(connect, new RetryOneTime(100));
              c.start();
              return c;
            });
    try (DistributedSemaphores sems = DistributedSemaphores.create(options(), backend);
        DistributedReadWriteLock rw = DistributedReadWriteLock.create(options(), backend)) {
      if (!curator.blockUntilConnected(20, TimeUnit.SECONDS)) {
        throw new IllegalStateException("Curator did not connect");
      }
      String hostloomClient =
          "`ZooKeeperLockBackend.builder().connectString(..).rootPath(\"/prim\").build()` (one"
              + " ZooKeeper client), `LockingOptions.builder().namespace(\"prim\")"
              + ".defaultLease(30 s).build()`";
      String curatorClient =
          "Curator "
              + Machine.version("org.apache.curator", "curator-recipes")
              + " `CuratorFrameworkFactory.newClient(connect, RetryOneTime(100))`, one client,"
              + " other settings default";
      DistributedSemaphore hsem = sems.semaphore("hsem", PERMITS);
      InterProcessSemaphoreV2 csem = new InterProcessSemaphoreV2(curator, "/curator/sem", PERMITS);
      List<InterProcessReadWriteLock> crw = new ArrayList<>();
      for (int i = 0; i < RW_NAMES; i++) {
        crw.add(new InterProcessReadWriteLock(curator, "/curator/rw" + i));
      }
      List<Peer> semPeers =
          List.of(
              new Peer(
                  "HostLoom DistributedSemaphore",
                  hostloomClient
                      + "; `semaphore(\"hsem\", 8)`, `acquire(1, lease 30 s)` + `close()`",
                  (w, n) -> hostloomPermit(hsem),
                  hl::roundTrips),
              new Peer(
                  "Curator InterProcessSemaphoreV2",
                  curatorClient
                      + "; `new InterProcessSemaphoreV2(client, path, 8)`, `acquire(5 s)` +"
                      + " `returnLease(lease)` (ephemeral lease nodes: a permit lives as long as the"
                      + " session)",
                  (w, n) -> {
                    Lease lease = csem.acquire(WAIT.toMillis(), TimeUnit.MILLISECONDS);
                    if (lease == null) {
                      return false;
                    }
                    csem.returnLease(lease);
                    return true;
                  },
                  cu::roundTrips));
      List<Peer> rwPeers =
          List.of(
              new Peer(
                  "HostLoom DistributedReadWriteLock",
                  hostloomClient + "; `acquireRead/acquireWrite(name, lease 30 s, maxWait 5 s)`",
                  (w, n) -> hostloomRw(rw, w, n),
                  hl::roundTrips),
              new Peer(
                  "Curator InterProcessReadWriteLock",
                  curatorClient
                      + "; `new InterProcessReadWriteLock(client, path)` per name (one instance"
                      + " shared by the threads), `readLock()/writeLock().acquire(5 s)` +"
                      + " `release()`",
                  (w, n) -> {
                    InterProcessReadWriteLock l = crw.get(Integer.parseInt(n.substring(2)));
                    InterProcessMutex m = w ? l.writeLock() : l.readLock();
                    if (!m.acquire(WAIT.toMillis(), TimeUnit.MILLISECONDS)) {
                      return false;
                    }
                    m.release();
                    return true;
                  },
                  cu::roundTrips));
      log("zookeeper: semaphores");
      measure(plan, semPeers, false, null);
      tables.add(new Table("ZooKeeper", "semaphore", semPeers));
      log("zookeeper: reader-writer locks");
      measure(plan, rwPeers, true, null);
      tables.add(new Table("ZooKeeper", "read-write", rwPeers));
    } finally {
      curator.close();
      backend.close();
    }
  }

  // ------------------------------------------------------------------ the two peers of HostLoom

  private static LockingOptions options() {
    return LockingOptions.builder().namespace("prim").defaultLease(LEASE).build();
  }

  private static final LockOptions BLOCKING =
      LockOptions.builder().lease(LEASE).maxWait(WAIT).build();

  private static boolean hostloomPermit(DistributedSemaphore sem) {
    try (Permits p = sem.acquire(1, BLOCKING)) {
      return p.isHeld();
    }
  }

  private static boolean hostloomRw(DistributedReadWriteLock rw, boolean write, String name) {
    try (ReadWriteHandle h =
        write ? rw.acquireWrite(name, BLOCKING) : rw.acquireRead(name, BLOCKING)) {
      return h.isHeld();
    }
  }

  // ------------------------------------------------------------------ measuring

  private static void measure(Plan plan, List<Peer> peers, boolean rw, ClientSettings redis)
      throws Exception {
    // warm-up: a few uncontended cycles and a short contended block each
    for (Peer p : peers) {
      uncontended(p, rw, Math.max(10, plan.uncontendedCycles() / 4), null);
      contended(p, rw, Duration.ofMillis(Math.min(1000, plan.throughputBlock().toMillis())), false);
    }
    if (redis != null) {
      calibrateRedis(plan, peers, rw, redis);
    }
    int n = peers.size();
    for (int round = 0; round < plan.rounds(); round++) {
      for (int k = 0; k < n; k++) {
        Peer p = peers.get((k + round) % n);
        uncontended(p, rw, plan.uncontendedCycles(), p.uncontended);
      }
      for (int k = 0; k < n; k++) {
        Peer p = peers.get((k + round) % n);
        long rt0 = p.roundTrips == null ? 0 : p.roundTrips.getAsLong();
        long[] done = contended(p, rw, plan.throughputBlock(), true);
        if (p.roundTrips != null) {
          p.contendedRoundTrips += p.roundTrips.getAsLong() - rt0;
          p.contendedCycles += done[0];
        }
      }
    }
    for (Peer p : peers) {
      if (p.roundTrips != null) {
        long rt0 = p.roundTrips.getAsLong();
        int c = uncontended(p, rw, 50, null);
        p.uncontendedRt = (double) (p.roundTrips.getAsLong() - rt0) / c;
      }
    }
  }

  // MONITOR (not while timing): client commands per uncontended cycle and per contended cycle
  private static void calibrateRedis(Plan plan, List<Peer> peers, boolean rw, ClientSettings s)
      throws Exception {
    for (Peer p : peers) {
      try (RedisMonitor m = new RedisMonitor(s.host(), s.port())) {
        sleep(100);
        int c = uncontended(p, rw, 50, null);
        sleep(300);
        p.uncontendedRt = m.roundTripsPerCycle(c);
        p.commands = m.clientPerCycle(c);
      }
      try (RedisMonitor m = new RedisMonitor(s.host(), s.port())) {
        sleep(100);
        long[] done =
            contended(
                p, rw, Duration.ofMillis(Math.min(1000, plan.throughputBlock().toMillis())), false);
        sleep(300);
        p.contendedCycles = done[0];
        p.contendedRoundTrips = Math.round(m.roundTripsPerCycle(1));
      }
    }
  }

  private static int uncontended(Peer p, boolean rw, int cycles, Histogram h) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    int done = 0;
    for (int i = 0; i < cycles && System.nanoTime() - deadline < 0; i++) {
      long t0 = System.nanoTime();
      if (!p.cycle.run(false, "rw0")) {
        throw new IllegalStateException(p.name + ": uncontended cycle not granted");
      }
      if (h != null) {
        h.recordValue(Math.min(System.nanoTime() - t0, h.getHighestTrackableValue()));
      }
      done++;
    }
    return done;
  }

  /** {@code THREADS} threads for {@code length}; returns {cycles, failures}. */
  private static long[] contended(Peer p, boolean rw, Duration length, boolean record)
      throws InterruptedException {
    AtomicLong cycles = new AtomicLong();
    AtomicLong failures = new AtomicLong();
    AtomicLong errors = new AtomicLong();
    long start = System.nanoTime();
    long end = start + length.toNanos();
    List<Thread> threads = new ArrayList<>();
    for (int t = 0; t < THREADS; t++) {
      Thread th =
          new Thread(
              () -> {
                ThreadLocalRandom rnd = ThreadLocalRandom.current();
                long n = 0;
                while (System.nanoTime() - end < 0 && n++ < 1_000_000) {
                  boolean write = rw && rnd.nextInt(100) < WRITE_PERCENT;
                  String name = "rw" + (rw ? rnd.nextInt(RW_NAMES) : 0);
                  try {
                    if (p.cycle.run(write, name)) {
                      cycles.incrementAndGet();
                    } else {
                      failures.incrementAndGet();
                    }
                  } catch (Exception e) {
                    if (errors.getAndIncrement() == 0) {
                      log(p.name + ": " + e);
                    }
                    failures.incrementAndGet();
                  }
                }
              },
              "prim-" + t);
      th.setDaemon(true);
      threads.add(th);
      th.start();
    }
    for (Thread th : threads) {
      th.join(length.toMillis() + WAIT.toMillis() + 10_000);
    }
    long nanos = System.nanoTime() - start;
    if (record) {
      p.cycles += cycles.get();
      p.failures += failures.get();
      p.nanos += nanos;
    }
    return new long[] {cycles.get(), failures.get()};
  }

  private static void sleep(long ms) throws InterruptedException {
    Thread.sleep(ms);
  }

  static void log(String message) {
    System.err.println("[bench] primitives: " + message);
  }

  static String fmt(double v) {
    if (Double.isNaN(v)) {
      return "–";
    }
    return v >= 100
        ? String.format(Locale.ROOT, "%,.0f", v)
        : String.format(Locale.ROOT, "%.1f", v);
  }
}
