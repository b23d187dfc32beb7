package io.hostloom.redis;

import static org.assertj.core.api.Assertions.assertThat;

import io.hostloom.locking.DistributedLock;
import io.hostloom.locking.LockHandle;
import io.hostloom.locking.LockNotAcquiredException;
import io.hostloom.locking.LockingOptions;
import io.hostloom.testkit.TestTiming;
import io.lettuce.core.RedisClient;
import io.lettuce.core.event.command.CommandListener;
import io.lettuce.core.event.command.CommandStartedEvent;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * Measures the kernel-level hand-off latency on a real server: {@value #THREADS} threads of one
 * {@link DistributedLock} (default retry policy) take turns on one key, each holding it for {@link
 * #HOLD}; a hand-off is the time from the holder starting its release to the next holder's {@code
 * acquire} returning. A thread that released waits until another thread got the key before it
 * competes again, and its first attempt is refused during that holder's {@link #HOLD}, so every
 * hand-off goes to a thread that was waiting (none barges in with a fresh first attempt). Run with
 * {@code wakeOnRelease} on and off. Prints the numbers; asserts only that the hand-offs happened
 * (tests never assert timings).
 */
class HandOffLatencyTest {
  private static final int THREADS = 8;
  private static final int HAND_OFFS = 300;
  private static final Duration HOLD = Duration.ofMillis(10);

  private final RedisServerProcess redis = RedisServerProcess.shared();

  @Test
  void handOffWithAndWithoutWakeOnRelease() throws Exception {
    String on = measure(true);
    String off = measure(false);
    System.out.println(
        "[redis hand-off] "
            + THREADS
            + " threads, one key, held "
            + HOLD.toMillis()
            + " ms, default retry policy, "
            + HAND_OFFS
            + " hand-offs each: wakeOnRelease on: "
            + on
            + "; off: "
            + off);
  }

  private String measure(boolean wakeOnRelease) throws Exception {
    AtomicLong scripts = new AtomicLong();
    RedisClient client = RedisClient.create();
    client.addListener(
        new CommandListener() {
          @Override
          public void commandStarted(CommandStartedEvent event) {
            if (event.getCommand().getType().toString().startsWith("EVAL")) {
              scripts.incrementAndGet();
            }
          }
        });
    LockingOptions options =
        LockingOptions.builder().namespace("handoff").wakeOnRelease(wakeOnRelease).build();
    List<Double> millis = Collections.synchronizedList(new ArrayList<>());
    AtomicInteger exhausted = new AtomicInteger();
    ExecutorService pool = Executors.newFixedThreadPool(THREADS);
    try (RedisLockBackend backend =
            RedisLockBackend.builder().client(client).uri(redis.uri()).build();
        DistributedLock lock = DistributedLock.create(options, backend)) {
      if (wakeOnRelease) {
        ReleaseSignalTest.awaitSubscribed(backend);
      }
      lock.acquire("warm-up").close(); // loads the scripts
      String key = "k-" + UUID.randomUUID();
      Turns turns = new Turns();
      AtomicBoolean running = new AtomicBoolean(true);
      long scriptsBefore = scripts.get();
      List<Future<?>> workers = new ArrayList<>();
      for (int t = 0; t < THREADS; t++) {
        workers.add(
            pool.submit(
                () -> {
                  while (running.get()) {
                    LockHandle h;
                    try {
                      h = lock.acquire(key);
                    } catch (LockNotAcquiredException e) {
                      exhausted.incrementAndGet(); // its retry budget ran out: compete again
                      continue;
                    }
                    long granted = System.nanoTime();
                    long released = turns.releasedAt.getAndSet(0);
                    if (released != 0 && millis.size() < HAND_OFFS) {
                      millis.add((granted - released) / 1e6);
                      if (millis.size() >= HAND_OFFS) {
                        running.set(false);
                      }
                    }
                    int grant = turns.granted();
                    TestTiming.pass(HOLD); // the work; lets the previous holder queue up
                    turns.releasedAt.set(System.nanoTime());
                    h.close();
                    turns.awaitNextGrant(grant, running);
                  }
                  return null;
                }));
      }
      for (Future<?> w : workers) {
        w.get(5, TimeUnit.MINUTES);
      }
      long handOffs = millis.size();
      assertThat(handOffs).isEqualTo(HAND_OFFS);
      double scriptsPerHandOff = (scripts.get() - scriptsBefore) / (double) turns.grants();
      return summary(millis, scriptsPerHandOff, exhausted.get());
    } finally {
      pool.shutdownNow();
      client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
    }
  }

  /** Whose turn it is: a thread that released waits for the next grant before competing again. */
  private static final class Turns {
    final AtomicLong releasedAt = new AtomicLong(); // nanoTime the last release started; 0: none
    private int grants; // guarded by this

    synchronized int grants() {
      return grants;
    }

    synchronized int granted() {
      notifyAll();
      return ++grants;
    }

    synchronized void awaitNextGrant(int grant, AtomicBoolean running) {
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
      try {
        while (grants == grant && running.get()) {
          long left = deadline - System.nanoTime();
          if (left <= 0) {
            return;
          }
          TimeUnit.NANOSECONDS.timedWait(this, Math.min(left, TimeUnit.MILLISECONDS.toNanos(20)));
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }

  private static String summary(List<Double> millis, double scriptsPerHandOff, int exhausted) {
    List<Double> sorted = new ArrayList<>(millis);
    Collections.sort(sorted);
    return String.format(
        Locale.ROOT,
        "p50 %.2f ms, p90 %.2f ms, p99 %.2f ms, max %.2f ms, %.1f scripts per hand-off,"
            + " retry budget exhausted %d times",
        percentile(sorted, 0.50),
        percentile(sorted, 0.90),
        percentile(sorted, 0.99),
        sorted.get(sorted.size() - 1),
        scriptsPerHandOff,
        exhausted);
  }

  private static double percentile(List<Double> sorted, double p) {
    return sorted.get((int) Math.ceil(sorted.size() * p) - 1);
  }
}
