package io.hostloom.benchmarks;

import io.hostloom.locking.DistributedLock;
import io.hostloom.locking.LockHandle;
import io.hostloom.locking.LockOptions;
import io.hostloom.locking.LockingOptions;
import io.hostloom.locking.memory.InMemoryLockBackend;
import io.hostloom.locking.time.LockClock;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * The kernel's cost over the in-memory backend, one thread, one key: {@link #backendFloor} is the
 * backend alone (acquire + release futures, already complete), the other two are the whole public
 * API on top of it. Their difference is the kernel's overhead per acquire + release.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class KernelBenchmark {
  private static final String KEY = "invoice-42";
  private static final String BACKEND_KEY = "bench:lock:" + KEY;
  private static final String OWNER = "0123456789abcdef0123456789abcdef";
  private static final Duration LEASE = LockingOptions.DEFAULT_LEASE;

  private InMemoryLockBackend backend;
  private DistributedLock lock;
  private DistributedLock noWakeLock;

  @Setup(Level.Trial)
  public void setUp() {
    backend = new InMemoryLockBackend();
    lock = DistributedLock.create(LockingOptions.of("bench"), backend);
    noWakeLock =
        DistributedLock.create(
            LockingOptions.builder().namespace("bench2").wakeOnRelease(false).build(), backend);
  }

  @TearDown(Level.Trial)
  public void tearDown() {
    lock.close();
    noWakeLock.close();
  }

  /** The floor: the in-memory backend's acquire and release, with no kernel around them. */
  @Benchmark
  public boolean backendFloor() {
    long token = backend.acquire(BACKEND_KEY, OWNER, "", LEASE).join().fencingToken();
    return backend.release(BACKEND_KEY, OWNER).join().released() && token > 0;
  }

  /** {@code tryAcquire} (skip if busy) and {@code close} of the handle. */
  @Benchmark
  public long tryAcquireClose() {
    Optional<LockHandle> h = lock.tryAcquire(KEY);
    try (LockHandle held = h.orElseThrow()) {
      return held.fencingToken();
    }
  }

  /** {@code executeWithLock} with the default options and an action that only reads the token. */
  @Benchmark
  public long executeWithLock() {
    return lock.executeWithLock(KEY, LockOptions.DEFAULTS, LockHandle::fencingToken);
  }

  /**
   * Diagnostic: {@link #executeWithLock} on a lock with {@code wakeOnRelease(false)}. An
   * uncontended acquisition makes no release-signal subscription (the kernel subscribes only after
   * a refused first attempt), so the difference should be noise.
   */
  @Benchmark
  public long executeWithLockNoWake() {
    return noWakeLock.executeWithLock(KEY, LockOptions.DEFAULTS, LockHandle::fencingToken);
  }

  /**
   * One timer armed and cancelled on the system clock: what every handle does once (its lease-end
   * timer), measured alone to attribute part of the overhead.
   */
  @Benchmark
  public void clockTimerArmCancel() {
    LockClock.system().schedule(LEASE, KernelBenchmark::noop).cancel();
  }

  private static void noop() {}
}
