package io.hostloom.testkit.kernel;

import static org.assertj.core.api.Assertions.assertThat;

import io.hostloom.locking.DistributedLock;
import io.hostloom.locking.LockNotAcquiredException;
import io.hostloom.locking.LockingOptions;
import io.hostloom.locking.spi.LockBackend;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The lock kernel over a backend on a <em>real</em> server, with real threads: two lock instances
 * (two "processes", each with its own backend instance and connections) contend for one key; no two
 * holds overlap, every hold's fencing token is larger than the one before, and no release wait is
 * left behind. Complements {@link KernelConformanceSuite}, whose manual clock a real server's
 * expiry does not follow.
 *
 * <p>Subclass it in the backend's tests and return a new backend instance from {@link
 * #newBackend()}; the suite closes each instance it asked for (when {@link AutoCloseable}).
 */
public abstract class RealBackendExclusionSuite {

  /** A new backend instance with its own connections to the shared test server. */
  protected abstract LockBackend newBackend();

  /** The release waits {@code backend} still keeps, when it can tell. Default: not observable. */
  protected OptionalInt pendingWaits(LockBackend backend) {
    return OptionalInt.empty();
  }

  /** Threads per lock instance. Default 3. */
  protected int threadsPerInstance() {
    return 3;
  }

  /**
   * The workers' threads, one per task: a fixed platform-thread pool of {@code threads} by default;
   * a virtual-thread executor on Java 21+ runs the same scenario on virtual threads.
   */
  protected ExecutorService newWorkers(int threads) {
    return Executors.newFixedThreadPool(threads);
  }

  /** Grants each thread takes. Default 10. */
  protected int rounds() {
    return 10;
  }

  @Test
  void twoLockInstancesExcludeEachOtherAcrossRealThreads() throws Exception {
    int threads = threadsPerInstance();
    String key = "job-" + UUID.randomUUID();
    AtomicInteger inside = new AtomicInteger();
    AtomicInteger overlaps = new AtomicInteger();
    AtomicInteger busy = new AtomicInteger();
    List<Long> tokens = new CopyOnWriteArrayList<>(); // appended inside the critical section
    ExecutorService pool = newWorkers(2 * threads);
    LockBackend b1 = newBackend();
    LockBackend b2 = newBackend();
    try (DistributedLock l1 = DistributedLock.create(LockingOptions.of("excl"), b1);
        DistributedLock l2 = DistributedLock.create(LockingOptions.of("excl"), b2)) {
      List<Future<?>> workers = new ArrayList<>();
      for (int t = 0; t < 2 * threads; t++) {
        DistributedLock lock = t % 2 == 0 ? l1 : l2;
        workers.add(
            pool.submit(
                () -> {
                  int done = 0;
                  while (done < rounds()) {
                    try {
                      lock.runWithLock(
                          key,
                          h -> {
                            if (inside.incrementAndGet() != 1) {
                              overlaps.incrementAndGet();
                            }
                            tokens.add(h.fencingToken());
                            inside.decrementAndGet();
                          });
                      done++;
                    } catch (LockNotAcquiredException e) {
                      busy.incrementAndGet(); // the retry budget ran out: try again
                    }
                  }
                  return null;
                }));
      }
      for (Future<?> w : workers) {
        w.get(120, TimeUnit.SECONDS);
      }
      assertThat(overlaps).hasValue(0);
      assertThat(tokens).hasSize(2 * threads * rounds());
      for (int i = 1; i < tokens.size(); i++) {
        assertThat(tokens.get(i)).as("token of grant %d", i).isGreaterThan(tokens.get(i - 1));
      }
      for (LockBackend b : List.of(b1, b2)) {
        OptionalInt pending = pendingWaits(b);
        if (pending.isPresent()) {
          assertThat(pending.getAsInt()).as("release waits left behind").isZero();
        }
      }
      System.out.println(
          "[kernel exclusion over "
              + b1.name()
              + "] "
              + tokens.size()
              + " grants over 2 lock instances x "
              + threads
              + " threads, no overlap; retry budget exhausted "
              + busy.get()
              + " times");
    } finally {
      pool.shutdownNow();
      for (LockBackend b : List.of(b1, b2)) {
        if (b instanceof AutoCloseable c) {
          c.close();
        }
      }
    }
  }
}
