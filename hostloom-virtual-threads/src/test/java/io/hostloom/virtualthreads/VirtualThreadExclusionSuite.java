package io.hostloom.virtualthreads;

import io.hostloom.locking.DistributedLock;
import io.hostloom.locking.LockBackendUnavailableException;
import io.hostloom.locking.LockNotAcquiredException;
import io.hostloom.locking.LockingOptions;
import io.hostloom.locking.spi.LockBackend;
import io.hostloom.testkit.kernel.RealBackendExclusionSuite;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

/**
 * The testkit's real-server exclusion scenario on virtual threads (one per worker, many more
 * workers than the platform-thread default), with JFR recording pinned virtual threads the whole
 * time: the scenario fails on any pinned event, so a backend or kernel path that blocks a virtual
 * thread where it cannot unmount (while waiting for a grant, a reply or a connection) is a failure,
 * not noise.
 */
public abstract class VirtualThreadExclusionSuite extends RealBackendExclusionSuite {
  private PinnedEventCheck pinning;

  @BeforeEach
  final void warmUpThenRecordPinning() throws Exception {
    warmUp();
    pinning = PinnedEventCheck.start();
  }

  @AfterEach
  final void noVirtualThreadWasPinned() throws Exception {
    if (pinning == null) {
      return; // the warm-up failed: that failure is the test's
    }
    pinning.assertNone("in " + getClass().getSimpleName());
  }

  /**
   * One contended grant per worker before recording. The first use of a class loads and initializes
   * it, and on Java 25 a virtual thread that meets another thread's class loading or initializer
   * there is still pinned (JEP 491 leaves class loading and initialization so): the JVM's one-time
   * start-up, not a wait of the lock. Cold, the scenario showed such events only (Redis 22, Azurite
   * 22, PostgreSQL 3, etcd 2, ZooKeeper 2), every one under {@code ClassLoader.loadClass} or
   * "waited for initialization of ... by another thread".
   */
  private void warmUp() throws Exception {
    LockBackend b1 = newBackend();
    LockBackend b2 = newBackend();
    try (DistributedLock l1 = DistributedLock.create(LockingOptions.of("warm-up"), b1);
        DistributedLock l2 = DistributedLock.create(LockingOptions.of("warm-up"), b2);
        ExecutorService workers = newWorkers(2 * threadsPerInstance())) {
      List<Future<?>> all = new ArrayList<>();
      for (int t = 0; t < 2 * threadsPerInstance(); t++) {
        DistributedLock lock = t % 2 == 0 ? l1 : l2;
        all.add(
            workers.submit(
                () -> {
                  try {
                    lock.runWithLock("warm-up", h -> {});
                  } catch (LockNotAcquiredException | LockBackendUnavailableException e) {
                    // busy past the retry budget, or a cold server slow to answer: the classes of
                    // the path are loaded all the same (and if not, the recording shows it)
                  }
                }));
      }
      for (Future<?> f : all) {
        f.get(120, TimeUnit.SECONDS);
      }
    } finally {
      for (LockBackend b : List.of(b1, b2)) {
        if (b instanceof AutoCloseable c && b1 != b2) {
          c.close();
        }
      }
    }
  }

  @Override
  protected ExecutorService newWorkers(int threads) {
    return Executors.newVirtualThreadPerTaskExecutor();
  }

  @Override
  protected int threadsPerInstance() {
    return 20;
  }

  @Override
  protected int rounds() {
    return 5;
  }
}
