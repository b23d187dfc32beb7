package io.hostloom.benchmarks;

import com.zaxxer.hikari.HikariDataSource;
import io.hostloom.benchmarks.faces.StorageFaces;
import io.hostloom.jdbc.JdbcLockBackend;
import io.hostloom.jdbc.PostgresTestServer;
import io.hostloom.locking.DistributedLock;
import io.hostloom.locking.LockHandle;
import io.hostloom.locking.LockOptions;
import io.hostloom.locking.LockingOptions;
import io.hostloom.locking.memory.InMemoryLockBackend;
import io.hostloom.locking.testing.CountingLockBackend;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Cost as work grows: JVM heap and timer-thread CPU per held handle at 1 k, 10 k and 100 k handles
 * held at once (with and without auto-extend), and PostgreSQL rows and table size after many
 * distinct keys, before and after {@code purgeExpired}. Redis memory per key is measured by {@link
 * io.hostloom.benchmarks.redis.WakeupScaling} on the side-by-side server.
 */
public final class Scaling {
  private static final String TIMER_THREAD = "hostloom-lock-timer";
  // auto-extend at half the remaining lease: a 2 s lease extends every handle about once a second
  private static final Duration EXTENDING_LEASE = Duration.ofSeconds(2);
  private static final Duration PARKED_LEASE = Duration.ofMinutes(10);

  private Scaling() {}

  /** One row of the held-handles table. */
  public record Handles(
      int handles,
      boolean autoExtend,
      Duration lease,
      double heapBytesPerHandle,
      double timerCpuMicrosPerHandleSecond,
      double extensionsPerHandleSecond,
      int lost) {}

  /** PostgreSQL after {@code keys} distinct keys were each acquired and released once. */
  public record Postgres(
      int keys,
      long rows,
      long tableBytes,
      int purged,
      long rowsAfterPurge,
      long tableBytesAfterPurge,
      long tableBytesAfterVacuum,
      Duration purgeAge) {}

  /** Everything this part measured. */
  public record Result(List<Handles> handles, Postgres postgres) {}

  public static Result run(boolean quick) throws Exception {
    int[] sizes = quick ? new int[] {1_000, 10_000} : new int[] {1_000, 10_000, 100_000};
    Duration window = quick ? Duration.ofSeconds(2) : Duration.ofSeconds(4);
    var unused = handles(1_000, true, Duration.ofSeconds(1)); // warm-up, not recorded
    List<Handles> rows = new ArrayList<>();
    for (boolean autoExtend : new boolean[] {false, true}) {
      for (int n : sizes) {
        rows.add(handles(n, autoExtend, window));
      }
    }
    return new Result(rows, postgres(quick ? 10_000 : 100_000));
  }

  // ---- held handles ----

  private static Handles handles(int n, boolean autoExtend, Duration window) throws Exception {
    Duration lease = autoExtend ? EXTENDING_LEASE : PARKED_LEASE;
    InMemoryLockBackend memory = new InMemoryLockBackend();
    CountingLockBackend backend = new CountingLockBackend(memory);
    LockOptions options = LockOptions.builder().lease(lease).autoExtend(autoExtend).build();
    try (DistributedLock lock =
        DistributedLock.create(LockingOptions.builder().namespace("scaling").build(), backend)) {
      List<LockHandle> held = new ArrayList<>(n);
      long before = usedHeapAfterGc();
      for (int i = 0; i < n; i++) {
        held.add(lock.tryAcquire("k" + i, options).orElseThrow());
      }
      long after = usedHeapAfterGc();
      long cpu0 = timerCpuNanos();
      long ext0 = backend.count(CountingLockBackend.Operation.EXTEND);
      long t0 = System.nanoTime();
      Thread.sleep(window.toMillis());
      long cpu = timerCpuNanos() - cpu0;
      long ext = backend.count(CountingLockBackend.Operation.EXTEND) - ext0;
      double seconds = (System.nanoTime() - t0) / 1e9;
      int lost = 0;
      for (LockHandle h : held) {
        if (!h.isHeld()) {
          lost++;
        }
        h.close();
      }
      return new Handles(
          n,
          autoExtend,
          lease,
          (double) (after - before) / n,
          cpu / 1e3 / n / seconds,
          ext / (double) n / seconds,
          lost);
    }
  }

  private static long usedHeapAfterGc() throws InterruptedException {
    long used = Long.MAX_VALUE;
    for (int i = 0; i < 3; i++) {
      System.gc();
      Thread.sleep(50);
      used = Math.min(used, ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed());
    }
    return used;
  }

  private static long timerCpuNanos() {
    ThreadMXBean mx = ManagementFactory.getThreadMXBean();
    long sum = 0;
    for (ThreadInfo t : mx.dumpAllThreads(false, false)) {
      if (t.getThreadName().startsWith(TIMER_THREAD)) {
        long c = mx.getThreadCpuTime(t.getThreadId());
        if (c > 0) {
          sum += c;
        }
      }
    }
    return sum;
  }

  // ---- PostgreSQL rows and table size ----

  private static Postgres postgres(int keys) throws Exception {
    try (PostgresTestServer pg = PostgresTestServer.startNew("bench-scaling", false);
        HikariDataSource ds =
            StorageFaces.pool(pg.jdbcUrl("postgres"), "postgres", "bench-scaling")) {
      JdbcLockBackend backend =
          JdbcLockBackend.builder(ds)
              .commandTimeout(Duration.ofSeconds(1))
              .releaseNotifications(false)
              .createTableIfMissing(true)
              .build();
      try {
        ExecutorService workers = Executors.newFixedThreadPool(4);
        try {
          AtomicInteger next = new AtomicInteger();
          List<CompletableFuture<Void>> done = new ArrayList<>();
          for (int w = 0; w < 4; w++) {
            done.add(
                CompletableFuture.runAsync(
                    () -> {
                      for (int i; (i = next.getAndIncrement()) < keys; ) {
                        String key = "key-" + i;
                        backend.acquire(key, "owner", "", Duration.ofSeconds(30)).join();
                        backend.release(key, "owner").join();
                      }
                    },
                    workers));
          }
          CompletableFuture.allOf(done.toArray(CompletableFuture[]::new)).join();
        } finally {
          workers.shutdownNow();
        }
        String table = backend.table().qualifiedTable();
        long rows = count(ds, table);
        long size = tableBytes(ds, table);
        Duration age = backend.minimumPurgeAge();
        Thread.sleep(age.toMillis() + 500);
        int purged = backend.purgeExpired(age).join();
        long rowsAfter = count(ds, table);
        long sizeAfter = tableBytes(ds, table);
        try (Connection c = ds.getConnection();
            Statement s = c.createStatement()) {
          s.execute("VACUUM " + table);
        }
        long sizeVacuumed = tableBytes(ds, table);
        return new Postgres(keys, rows, size, purged, rowsAfter, sizeAfter, sizeVacuumed, age);
      } finally {
        backend.close();
      }
    }
  }

  private static long count(HikariDataSource ds, String table) throws SQLException {
    return single(ds, "SELECT count(*) FROM " + table);
  }

  private static long tableBytes(HikariDataSource ds, String table) throws SQLException {
    return single(ds, "SELECT pg_total_relation_size('" + table + "')");
  }

  private static long single(HikariDataSource ds, String sql) throws SQLException {
    try (Connection c = ds.getConnection();
        Statement s = c.createStatement();
        ResultSet r = s.executeQuery(sql)) {
      r.next();
      return r.getLong(1);
    }
  }
}
