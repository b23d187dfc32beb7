package io.hostloom.zookeeper;

import io.hostloom.locking.spi.LockBackend;
import io.hostloom.testkit.TestTiming;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.IntFunction;

/**
 * Acquires started at once from many threads over several backend instances (sessions), so that
 * version-conditioned writes of one view znode collide: how many of them were granted.
 */
final class ViewRaces {
  static final Duration LONG = Duration.ofSeconds(60);
  static final int THREADS = 16;

  private ViewRaces() {}

  /** Opens {@code n} backends on the shared test server; the caller closes them. */
  static List<ZooKeeperLockBackend> instances(int n) {
    List<ZooKeeperLockBackend> list = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      list.add(ZooKeeperReadWriteViewsTest.open());
    }
    return list;
  }

  static void close(List<ZooKeeperLockBackend> instances) {
    instances.forEach(ZooKeeperLockBackend::close);
  }

  /**
   * Thread {@code i} acquires {@code key} as owner {@code "t<i>"} through {@code view.apply(i)};
   * the grants per thread, in thread order.
   */
  static List<Boolean> race(IntFunction<LockBackend> view, String key, String data)
      throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(THREADS);
    try {
      CountDownLatch start = new CountDownLatch(1);
      List<Future<Boolean>> results = new ArrayList<>();
      for (int i = 0; i < THREADS; i++) {
        LockBackend v = view.apply(i);
        String owner = "t" + i;
        results.add(
            pool.submit(
                () -> {
                  start.await();
                  return TestTiming.get(v.acquire(key, owner, data, LONG), Duration.ofSeconds(30))
                      .granted();
                }));
      }
      start.countDown();
      List<Boolean> granted = new ArrayList<>();
      for (Future<Boolean> f : results) {
        granted.add(f.get());
      }
      return granted;
    } finally {
      pool.shutdownNow();
    }
  }
}
