package io.hostloom.benchmarks.redis;

import io.hostloom.benchmarks.Pause;
import io.hostloom.locking.DistributedLock;
import io.hostloom.locking.LockHandle;
import io.hostloom.locking.LockNotAcquiredException;
import io.hostloom.locking.LockOptions;
import io.hostloom.locking.LockRetryPolicy;
import io.hostloom.locking.LockingOptions;
import io.hostloom.redis.RedisLockBackend;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * How HostLoom's Redis waiting scales, measured on the server: commands per hand-off with 8 and 64
 * waiters on one key, half in this JVM and half in a second one; the first contended wait of a
 * freshly built backend; and Redis memory per held lock and per released key at 100 k keys.
 */
public final class WakeupScaling {
  private static final Duration HOLD = Duration.ofMillis(1);
  private static final Duration REST = Duration.ofMillis(3); // a releaser rests before competing
  // steps long enough that polling adds next to nothing: what is left is the wake-ups
  private static final LockRetryPolicy LONG_STEPS =
      LockRetryPolicy.interval(100, Duration.ofSeconds(10));

  private WakeupScaling() {}

  /** Commands per hand-off for one number of waiters. */
  public record HandOffs(int waiters, int jvms, long grants, double scriptsPerHandOff, double ms) {}

  /** Everything this part measured. */
  public record Result(
      List<HandOffs> handOffs,
      double firstWaitMs,
      int keys,
      double bytesPerHeldLock,
      double bytesPerReleasedKey) {}

  /** Runs every measurement against the Redis at {@code host:port}. */
  public static Result run(String host, int port, boolean quick) throws Exception {
    String uri = "redis://" + host + ":" + port;
    List<HandOffs> h = new ArrayList<>();
    for (int waiters : new int[] {8, 64}) {
      h.add(handOffs(uri, waiters, quick ? Duration.ofSeconds(1) : Duration.ofSeconds(4)));
    }
    double first = firstWait(uri);
    int keys = quick ? 10_000 : 100_000;
    double[] mem = memory(uri, keys);
    return new Result(h, first, keys, mem[0], mem[1]);
  }

  // ---- commands per hand-off over two JVMs ----

  private static HandOffs handOffs(String uri, int waiters, Duration window) throws Exception {
    String key = "wake-" + waiters + "-" + System.nanoTime();
    Process child =
        new ProcessBuilder(
                List.of(
                    javaBinary(),
                    "-Xmx256m",
                    "-cp",
                    System.getProperty("java.class.path"),
                    WakeupScaling.class.getName(),
                    uri,
                    key,
                    Integer.toString(waiters / 2)))
            .redirectErrorStream(true)
            .start();
    RedisClient c = RedisClient.create(uri);
    try (StatefulRedisConnection<String, String> conn = c.connect();
        BufferedReader out =
            new BufferedReader(
                new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8));
        Contenders own = new Contenders(uri, key, waiters - waiters / 2)) {
      RedisCommands<String, String> cmd = conn.sync();
      awaitLine(out, "ready"); // the child's lock is built and its subscription is up
      // both JVMs learn the window, then compete
      long start = System.currentTimeMillis() + 1500;
      long end = start + window.toMillis();
      child.getOutputStream().write((start + " " + end + "\n").getBytes(StandardCharsets.UTF_8));
      child.getOutputStream().flush();
      own.start(start, end);
      sleepUntil(start);
      long before = scripts(cmd);
      sleepUntil(end);
      long after = scripts(cmd);
      long grants = own.stop() + Long.parseLong(awaitLine(out, "grants ").substring(7).trim());
      child.waitFor(30, TimeUnit.SECONDS);
      double perHandOff = grants == 0 ? Double.NaN : (after - before) / (double) grants;
      return new HandOffs(waiters, 2, grants, perHandOff, window.toMillis() / (double) grants);
    } finally {
      child.destroyForcibly();
      c.shutdown();
    }
  }

  /** The second JVM: {@code uri key threads}; reads the window, prints its grants in it. */
  public static void main(String[] a) throws Exception {
    try (Contenders c = new Contenders(a[0], a[1], Integer.parseInt(a[2]))) {
      System.out.println("ready");
      System.out.flush();
      String[] w =
          new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8))
              .readLine()
              .trim()
              .split(" ", -1);
      c.start(Long.parseLong(w[0]), Long.parseLong(w[1]));
      System.out.println("grants " + c.stop());
      System.out.flush();
    }
    System.exit(0);
  }

  private static String awaitLine(BufferedReader r, String prefix) throws java.io.IOException {
    String line;
    while ((line = r.readLine()) != null) {
      if (line.startsWith(prefix)) {
        return line;
      }
    }
    throw new IllegalStateException("the second JVM ended before printing " + prefix);
  }

  /** Contenders of one lock instance (one backend) in this JVM; grants counted in the window. */
  private static final class Contenders implements AutoCloseable {
    private final String key;
    private final int threads;
    private final RedisLockBackend backend;
    private final DistributedLock lock;
    private final AutoCloseable closeLock;
    private final ConcurrentLinkedQueue<Long> grants = new ConcurrentLinkedQueue<>();
    private final AtomicBoolean running = new AtomicBoolean(true);
    private final List<Thread> ts = new ArrayList<>();
    private long end;

    Contenders(String uri, String key, int threads) {
      this.key = key;
      this.threads = threads;
      this.backend = RedisLockBackend.builder().uri(uri).build();
      var l =
          DistributedLock.create(
              LockingOptions.builder()
                  .namespace("wake")
                  .defaultLease(Duration.ofSeconds(30))
                  .build(),
              backend);
      this.lock = l;
      this.closeLock = l;
      // warm: scripts loaded, connections and the release subscription up
      CompletableFuture<LockHandle> w =
          lock.acquireAsync(
              key + ":warm", LockOptions.builder().maxWait(Duration.ofSeconds(5)).build());
      w.join().close();
      Pause.millis(300);
    }

    void start(long start, long end) {
      this.end = end;
      LockOptions waitLong =
          LockOptions.builder().retry(LONG_STEPS).maxWait(Duration.ofSeconds(60)).build();
      for (int i = 0; i < threads; i++) {
        Thread t =
            new Thread(
                () -> {
                  while (running.get()) {
                    try (LockHandle h = lock.acquire(key, waitLong)) {
                      long now = System.currentTimeMillis();
                      if (now >= start && now < end) {
                        grants.add(now);
                      }
                      Pause.millis(HOLD.toMillis());
                    } catch (LockNotAcquiredException e) {
                      // ran out of steps: compete again
                    } catch (RuntimeException e) {
                      if (!running.get()) {
                        return;
                      }
                    }
                    Pause.millis(REST.toMillis());
                  }
                });
        t.setDaemon(true);
        t.start();
        ts.add(t);
      }
    }

    long stop() {
      sleepUntil(end + 300);
      running.set(false);
      for (Thread t : ts) {
        try {
          t.join(15_000);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }
      return grants.size();
    }

    @Override
    public void close() throws Exception {
      running.set(false);
      closeLock.close();
      backend.close();
    }
  }

  // every script the server ran (acquire and release attempts), from INFO commandstats
  private static long scripts(RedisCommands<String, String> cmd) {
    long n = 0;
    for (String line : cmd.info("commandstats").split("\r\n", -1)) {
      if (line.startsWith("cmdstat_evalsha:") || line.startsWith("cmdstat_eval:")) {
        int i = line.indexOf("calls=") + 6;
        n += Long.parseLong(line.substring(i, line.indexOf(',', i)));
      }
    }
    return n;
  }

  // ---- the first contended wait of a fresh backend ----

  /** A release 120 ms into the first wait of a fresh backend: how long after it was it granted? */
  private static double firstWait(String uri) throws Exception {
    LockingOptions options = LockingOptions.builder().namespace("first").build();
    String key = "first-" + System.nanoTime();
    try (RedisLockBackend hb = RedisLockBackend.builder().uri(uri).build();
        var holder = DistributedLock.create(options, hb);
        RedisLockBackend wb = RedisLockBackend.builder().uri(uri).build();
        var waiter = DistributedLock.create(options, wb)) {
      LockHandle held = holder.acquire(key);
      CompletableFuture<LockHandle> waiting =
          waiter.acquireAsync(key, LockOptions.builder().maxWait(Duration.ofSeconds(10)).build());
      Pause.millis(120);
      long released = System.nanoTime();
      held.close();
      try (LockHandle h = waiting.get(15, TimeUnit.SECONDS)) {
        return (System.nanoTime() - released) / 1e6;
      }
    }
  }

  // ---- Redis memory per held lock and per released key ----

  private static double[] memory(String uri, int keys) throws Exception {
    RedisClient c = RedisClient.create(uri);
    try (StatefulRedisConnection<String, String> conn = c.connect();
        RedisLockBackend b =
            RedisLockBackend.builder().uri(uri).commandTimeout(Duration.ofSeconds(1)).build()) {
      RedisCommands<String, String> cmd = conn.sync();
      String prefix = "mem-" + System.nanoTime() + "-";
      long k0 = cmd.dbsize();
      long m0 = usedMemory(cmd);
      batches(keys, i -> b.acquire(prefix + i, "owner-" + i, "", Duration.ofMinutes(10)));
      long m1 = usedMemory(cmd);
      batches(keys, i -> b.release(prefix + i, "owner-" + i));
      Pause.millis(3500); // the releases' done keys (2 x command timeout + 1 s) expire
      // left: one fence counter per key; wait for active expiry to reclaim the done keys
      for (int i = 0; i < 50 && cmd.dbsize() - k0 > keys; i++) {
        Pause.millis(200);
      }
      long m2 = usedMemory(cmd);
      return new double[] {(m1 - m0) / (double) keys, (m2 - m0) / (double) keys};
    } finally {
      c.shutdown();
    }
  }

  private static void batches(int n, java.util.function.IntFunction<CompletableFuture<?>> op) {
    List<CompletableFuture<?>> inFlight = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      inFlight.add(op.apply(i));
      if (inFlight.size() == 500) {
        CompletableFuture.allOf(inFlight.toArray(CompletableFuture[]::new)).join();
        inFlight.clear();
      }
    }
    CompletableFuture.allOf(inFlight.toArray(CompletableFuture[]::new)).join();
  }

  private static long usedMemory(RedisCommands<String, String> cmd) {
    for (String line : cmd.info("memory").split("\r\n", -1)) {
      if (line.startsWith("used_memory:")) {
        return Long.parseLong(line.substring(12).trim());
      }
    }
    throw new IllegalStateException("no used_memory in INFO memory");
  }

  private static void sleepUntil(long epochMillis) {
    long left = epochMillis - System.currentTimeMillis();
    if (left > 0) {
      Pause.millis(left);
    }
  }

  private static String javaBinary() {
    return java.nio.file.Path.of(System.getProperty("java.home"), "bin", "java").toString();
  }
}
