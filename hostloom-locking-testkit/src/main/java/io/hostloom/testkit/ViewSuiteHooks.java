package io.hostloom.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import io.hostloom.locking.spi.LockBackend;
import io.hostloom.locking.spi.ReleaseSignal;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.IntFunction;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

/**
 * The hooks both view suites ({@code semaphore.PermitViewSuite}, {@code
 * rwlock.ReadWriteViewsSuite}) give a backend module: new instances of the backend under test (the
 * suites open and close them), the short lease and how long its expiry may take, the key namespace
 * and the release signal's readiness. Not a suite itself.
 */
public abstract class ViewSuiteHooks {
  /** Threads of one {@link #race}, spread over the racing instances. */
  protected static final int RACE_THREADS = 16;

  private static final Duration RACE_LEASE = Duration.ofSeconds(60);
  private static final Duration RACE_WAIT = Duration.ofSeconds(30);

  private final List<LockBackend> instances = new ArrayList<>();
  private LockBackend backend;
  private LockBackend other;

  /**
   * A new instance of the backend under test, over the same server as every other one; it
   * implements the suite's capability and offers its views. The suite opens one per test, and a
   * second one when a test asks for {@link #otherBackend()}, and closes them after the test ({@link
   * #closeBackend}). A backend whose callers in one JVM all share one instance (in-memory) may
   * answer the same object each time.
   */
  protected abstract LockBackend newBackend();

  /** Closes an instance {@link #newBackend()} made; default: closes it if {@link AutoCloseable}. */
  protected void closeBackend(LockBackend instance) throws Exception {
    Closing.ifCloseable(instance);
  }

  @BeforeEach
  final void openViewBackend() {
    backend = open();
  }

  @AfterEach
  final void closeViewBackends() throws Exception {
    other = null;
    Closing.all(instances, this::closeBackend);
  }

  /** The test's instance of the backend under test. */
  protected final LockBackend backend() {
    return backend;
  }

  /** A second instance on the same server (another process's view of the same keys). */
  protected final LockBackend otherBackend() {
    if (other == null) {
      other = open();
    }
    return other;
  }

  /**
   * {@code n} instances for a race: {@link #backend()}, {@link #otherBackend()} and more, each
   * another session of the same server (the same object for a backend that answers one), closed
   * after the test.
   */
  protected final List<LockBackend> racers(int n) {
    List<LockBackend> racers = new ArrayList<>(List.of(backend(), otherBackend()));
    while (racers.size() < n) {
      racers.add(open());
    }
    return racers.subList(0, n);
  }

  /**
   * Acquires {@code key} from {@value #RACE_THREADS} threads released at once, thread {@code i} as
   * owner {@code "t<i>"} through {@code view.apply(i)}: whether each was granted, in thread order.
   */
  protected static List<Boolean> race(IntFunction<LockBackend> view, String key, String data)
      throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(RACE_THREADS);
    try {
      CountDownLatch start = new CountDownLatch(1);
      List<Future<Boolean>> results = new ArrayList<>();
      for (int i = 0; i < RACE_THREADS; i++) {
        LockBackend v = view.apply(i);
        String owner = "t" + i;
        results.add(
            pool.submit(
                () -> {
                  start.await();
                  return TestTiming.get(v.acquire(key, owner, data, RACE_LEASE), RACE_WAIT)
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

  private LockBackend open() {
    LockBackend instance = newBackend();
    assertThat(instance).as("newBackend()").isNotNull();
    if (!instances.contains(instance)) {
      instances.add(instance);
    }
    return instance;
  }

  /** A lease short enough to expire within {@link #expiryWait()}; 50 ms unless overridden. */
  protected Duration shortLease() {
    return Duration.ofMillis(50);
  }

  /**
   * How long to wait, on the backend's clock, for a short lease to expire; 10 s unless overridden.
   */
  protected Duration expiryWait() {
    return Duration.ofSeconds(10);
  }

  /** The namespace of the keys (and of the locks a suite builds). */
  protected String namespace() {
    return "viewsuite";
  }

  /**
   * Whether the backend announces view releases ({@link ReleaseSignal}); when false, the wake tests
   * are reported as aborted with that reason instead of passing.
   */
  protected boolean releaseSignal() {
    return backend() instanceof ReleaseSignal;
  }

  /** Waits until an instance's release signal is ready (e.g. a subscription confirmed). */
  protected void awaitSignalReady(LockBackend instance) {}

  /**
   * Waits until the waits just begun watch their key, so that a release right after is seen (a
   * polling backend's first poll, its baseline, answered); nothing unless overridden.
   */
  protected void awaitWaitsWatching(LockBackend instance) {}
}
