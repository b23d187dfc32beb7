package io.hostloom.benchmarks.redis;

import io.hostloom.benchmarks.Latency;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.HdrHistogram.Histogram;

/** The three workloads, each bounded in count and in time. */
final class Workloads {
  /** Count bound of one thread's attempts in one throughput run. */
  private static final long MAX_ATTEMPTS = 2_000_000;

  private Workloads() {}

  /** What a multi-threaded run counted. */
  record Counts(long granted, long busy, long errors, long elapsedNanos) {}

  /**
   * Uncontended: one thread, one key, {@code cycles} times try-lock + unlock; each cycle's time
   * into {@code into}. Stops early at {@code budget}.
   *
   * @return the number of failed cycles (refused or thrown)
   */
  static long uncontended(LockPeer peer, String key, int cycles, Duration budget, Histogram into)
      throws Exception {
    long failures = 0;
    long deadline = System.nanoTime() + budget.toNanos();
    try (LockPeer.Contender c = peer.contender(0)) {
      for (int i = 0; i < cycles && System.nanoTime() - deadline < 0; i++) {
        long t0 = System.nanoTime();
        if (c.tryLock(key)) {
          c.unlock();
          into.recordValue(System.nanoTime() - t0);
        } else {
          failures++;
        }
      }
    }
    return failures;
  }

  /**
   * Throughput: {@code threads} threads, each with its own contender, try-lock a random one of
   * {@code keyCount} keys and unlock it when granted, for {@code window}. A refused attempt counts
   * as busy, not as a cycle. Cycle times (granted only) go into {@code into}.
   */
  static Counts throughput(
      LockPeer peer, String keyBase, int threads, int keyCount, Duration window, Histogram into)
      throws InterruptedException {
    String[] keys = new String[keyCount];
    for (int i = 0; i < keyCount; i++) {
      keys[i] = keyBase + ":" + i;
    }
    AtomicLong granted = new AtomicLong();
    AtomicLong busy = new AtomicLong();
    AtomicLong errors = new AtomicLong();
    CountDownLatch ready = new CountDownLatch(threads);
    CountDownLatch go = new CountDownLatch(1);
    long[] endNanos = new long[threads];
    List<Histogram> histograms = new ArrayList<>();
    List<Thread> workers = new ArrayList<>();
    long[] start = new long[1];
    for (int t = 0; t < threads; t++) {
      Histogram h = Latency.newHistogram();
      histograms.add(h);
      int index = t;
      Thread w =
          new Thread(
              () -> {
                ThreadLocalRandom rnd = ThreadLocalRandom.current();
                long g = 0;
                long b = 0;
                long e = 0;
                try (LockPeer.Contender c = peer.contender(index)) {
                  ready.countDown();
                  go.await();
                  long deadline = start[0] + window.toNanos();
                  long now;
                  while ((now = System.nanoTime()) - deadline < 0 && g + b + e < MAX_ATTEMPTS) {
                    String key = keys[rnd.nextInt(keyCount)];
                    try {
                      if (c.tryLock(key)) {
                        c.unlock();
                        h.recordValue(System.nanoTime() - now);
                        g++;
                      } else {
                        b++;
                      }
                    } catch (Exception ex) {
                      e++;
                    }
                  }
                } catch (InterruptedException ex) {
                  Thread.currentThread().interrupt();
                } finally {
                  endNanos[index] = System.nanoTime();
                  granted.addAndGet(g);
                  busy.addAndGet(b);
                  errors.addAndGet(e);
                }
              },
              "bench-" + peer.name() + "-" + t);
      workers.add(w);
      w.start();
    }
    ready.await();
    start[0] = System.nanoTime();
    go.countDown();
    long end = start[0];
    for (int t = 0; t < threads; t++) {
      Thread w = workers.get(t);
      w.join(window.toMillis() + 30_000);
      if (w.isAlive()) {
        throw new IllegalStateException(w.getName() + " did not finish");
      }
      end = Math.max(end, endNanos[t]);
    }
    for (Histogram h : histograms) {
      into.add(h);
    }
    return new Counts(granted.get(), busy.get(), errors.get(), end - start[0]);
  }

  /**
   * Contended hand-off: {@code threads} threads take turns on one key, each waiting the library's
   * own way. A holder keeps the lock 1 to 2 ms, notes the time and releases; the next holder
   * records (grant time - that time) when it is another thread. A releaser does not compete again
   * until another thread got the lock (or 200 ms passed), so each release has waiters. Runs for
   * {@code window} or {@code maxHandOffs} hand-offs, whichever comes first.
   */
  static Counts handOff(
      LockPeer peer,
      String key,
      int threads,
      Duration window,
      int maxHandOffs,
      Duration maxWait,
      Histogram into)
      throws InterruptedException {
    AtomicLong releaseStarted = new AtomicLong();
    AtomicInteger lastHolder = new AtomicInteger(-1);
    AtomicInteger handOffs = new AtomicInteger();
    AtomicLong timeouts = new AtomicLong();
    AtomicLong errors = new AtomicLong();
    long deadline = System.nanoTime() + window.toNanos();
    AtomicBoolean stop = new AtomicBoolean();
    List<Thread> workers = new ArrayList<>();
    long start = System.nanoTime();
    for (int t = 0; t < threads; t++) {
      int me = t;
      Thread w =
          new Thread(
              () -> {
                ThreadLocalRandom rnd = ThreadLocalRandom.current();
                try (LockPeer.Contender c = peer.contender(me)) {
                  while (!stop.get()) {
                    boolean got;
                    try {
                      got = c.lock(key, maxWait);
                    } catch (Exception e) {
                      errors.incrementAndGet();
                      continue;
                    }
                    if (!got) {
                      timeouts.incrementAndGet();
                      continue;
                    }
                    long granted = System.nanoTime();
                    long released = releaseStarted.getAndSet(0);
                    int previous = lastHolder.getAndSet(me);
                    if (released != 0 && previous != me && previous >= 0) {
                      synchronized (into) {
                        into.recordValue(granted - released);
                      }
                      if (handOffs.incrementAndGet() >= maxHandOffs) {
                        stop.set(true);
                      }
                    }
                    if (granted - deadline >= 0) {
                      stop.set(true);
                    }
                    LockSupport.parkNanos(1_000_000L + rnd.nextLong(1_000_000L));
                    releaseStarted.set(System.nanoTime());
                    try {
                      c.unlock();
                    } catch (Exception e) {
                      errors.incrementAndGet();
                    }
                    long backOffEnd = System.nanoTime() + 200_000_000L;
                    while (!stop.get()
                        && lastHolder.get() == me
                        && System.nanoTime() - backOffEnd < 0) {
                      LockSupport.parkNanos(100_000L);
                    }
                  }
                }
              },
              "handoff-" + peer.name() + "-" + t);
      workers.add(w);
      w.start();
    }
    for (Thread w : workers) {
      w.join(window.toMillis() + maxWait.toMillis() * threads + 30_000);
      if (w.isAlive()) {
        throw new IllegalStateException(w.getName() + " did not finish");
      }
    }
    return new Counts(handOffs.get(), timeouts.get(), errors.get(), System.nanoTime() - start);
  }
}
