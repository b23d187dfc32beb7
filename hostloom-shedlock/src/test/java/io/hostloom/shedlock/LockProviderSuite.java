package io.hostloom.shedlock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.hostloom.locking.DistributedLock;
import io.hostloom.locking.LockingOptions;
import io.hostloom.locking.spi.LeaseRecord;
import io.hostloom.locking.spi.LockBackend;
import io.hostloom.testkit.TestTiming;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import net.javacrumbs.shedlock.core.DefaultLockingTaskExecutor;
import net.javacrumbs.shedlock.core.LockAssert;
import net.javacrumbs.shedlock.core.LockConfiguration;
import net.javacrumbs.shedlock.core.LockExtender;
import net.javacrumbs.shedlock.core.SimpleLock;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The provider contract in the style of ShedLock's {@code AbstractLockProviderIntegrationTest},
 * {@code AbstractExtensibleLockProviderIntegrationTest} and {@code FuzzTester}, run over each
 * backend by a subclass. Expiry runs on the server's clock: short leases and bounded real waits
 * ({@link TestTiming}), never asserted timings.
 */
abstract class LockProviderSuite {
  private static final Duration LONG = Duration.ofSeconds(30);
  private static final Duration SHORT = Duration.ofMillis(300);
  private static final Duration WAIT = Duration.ofSeconds(10);

  /** The backend under test (started once per class by the subclass). */
  protected abstract LockBackend backend();

  /** Locks per fuzz thread; slower backends use fewer. */
  protected int fuzzIterations() {
    return 100;
  }

  private final HostLoomLockProvider provider = newProvider();
  private final String name = "job-" + UUID.randomUUID();

  private HostLoomLockProvider newProvider() {
    // one lock per provider, as per instance (own owner tokens)
    return new HostLoomLockProvider(DistributedLock.create(LockingOptions.of("suite"), backend()));
  }

  /**
   * Connects before the first short lease: a grant whose reply comes after its lease was spent is
   * refused by the lock, and the first call of a backend may include the connection set-up.
   */
  @BeforeEach
  void connect() {
    backend().read("suite:warm-up").join();
  }

  private static LockConfiguration config(String name, Duration atMost, Duration atLeast) {
    return new LockConfiguration(Instant.now(), name, atMost, atLeast);
  }

  private Optional<SimpleLock> lock(Duration atMost, Duration atLeast) {
    return provider.lock(config(name, atMost, atLeast));
  }

  private Optional<SimpleLock> lock(Duration atMost) {
    return lock(atMost, Duration.ZERO);
  }

  private Optional<LeaseRecord> record(String lockName) {
    return backend().read(provider.keyOf(lockName)).join();
  }

  private void assertLocked(String lockName) {
    assertThat(record(lockName)).as("%s is locked on the backend", lockName).isPresent();
  }

  private void assertUnlocked(String lockName) {
    assertThat(record(lockName)).as("%s is unlocked on the backend", lockName).isEmpty();
  }

  @Test
  void shouldCreateLock() {
    Optional<SimpleLock> lock = lock(LONG);
    assertThat(lock).isPresent();
    assertLocked(name);
    lock.get().unlock();
    assertUnlocked(name);
  }

  @Test
  void shouldNotReturnSecondLock() {
    Optional<SimpleLock> first = lock(LONG);
    assertThat(first).isPresent();
    assertThat(lock(LONG)).isEmpty();
    assertThat(newProvider().lock(config(name, LONG, Duration.ZERO))).isEmpty();
    first.get().unlock();
  }

  @Test
  void shouldCreateTwoIndependentLocks() {
    String other = name + "-other";
    Optional<SimpleLock> a = lock(LONG);
    Optional<SimpleLock> b = provider.lock(config(other, LONG, Duration.ZERO));
    assertThat(a).isPresent();
    assertThat(b).isPresent();
    a.get().unlock();
    assertUnlocked(name);
    assertLocked(other);
    b.get().unlock();
    assertUnlocked(other);
  }

  @Test
  void shouldLockTwiceInARow() {
    Optional<SimpleLock> first = lock(LONG);
    assertThat(first).isPresent();
    first.get().unlock();
    Optional<SimpleLock> second = lock(LONG);
    assertThat(second).isPresent();
    second.get().unlock();
    assertUnlocked(name);
  }

  @Test
  void shouldTimeout() {
    Optional<SimpleLock> abandoned = lock(SHORT);
    assertThat(abandoned).isPresent();
    assertThat(lock(SHORT)).isEmpty();
    // never unlocked: it ends by itself at lockAtMostFor, on the server's clock
    TestTiming.await("the lease ran out", () -> record(name).isEmpty(), WAIT);
    Optional<SimpleLock> next = lock(LONG);
    assertThat(next).isPresent();
    next.get().unlock();
  }

  @Test
  void shouldBeAbleToLockRightAfterUnlock() {
    for (int i = 0; i < 5; i++) {
      Optional<SimpleLock> lock = lock(LONG);
      assertThat(lock).as("round %d", i).isPresent();
      lock.get().unlock();
    }
  }

  @Test
  void unlockKeepsTheLockUntilLockAtLeastFor() {
    Optional<SimpleLock> lock = lock(LONG, SHORT);
    assertThat(lock).isPresent();
    lock.get().unlock();
    assertThat(lock(LONG)).as("right after unlock").isEmpty();
    // released at lockAtLeastFor, well before lockAtMostFor (30 s)
    TestTiming.await("lockAtLeastFor passed", () -> record(name).isEmpty(), WAIT);
    Optional<SimpleLock> next = lock(LONG);
    assertThat(next).isPresent();
    next.get().unlock();
  }

  @Test
  void shouldExtend() {
    // a first lease a loaded machine cannot spend before the extension is sent (the lock counts
    // the lease from the request, so an extension sent after it is refused locally)
    Duration first = Duration.ofSeconds(1);
    Optional<SimpleLock> lock = lock(first);
    assertThat(lock).isPresent();
    Optional<SimpleLock> extended = lock.get().extend(LONG, Duration.ZERO);
    assertThat(extended).isPresent();
    assertThatThrownBy(() -> lock.get().unlock()).isInstanceOf(IllegalStateException.class);
    TestTiming.pass(first.plus(SHORT)); // the first lease would have ended by now
    assertThat(lock(LONG)).isEmpty();
    extended.get().unlock();
    assertUnlocked(name);
    Optional<SimpleLock> next = lock(LONG);
    assertThat(next).isPresent();
    next.get().unlock();
  }

  @Test
  void extendingAnExpiredLockFails() {
    Optional<SimpleLock> lock = lock(SHORT);
    assertThat(lock).isPresent();
    TestTiming.await("the lease ran out", () -> record(name).isEmpty(), WAIT);
    assertThat(lock.get().extend(LONG, Duration.ZERO)).isEmpty();
  }

  @Test
  void lockAssertAndLockExtenderWorkThroughShedLocksExecutor() {
    DefaultLockingTaskExecutor executor = new DefaultLockingTaskExecutor(provider);
    boolean[] ran = {false};
    executor.executeWithLock(
        (Runnable)
            () -> {
              LockAssert.assertLocked();
              LockExtender.extendActiveLock(LONG, Duration.ZERO);
              assertThat(record(name))
                  .get()
                  .satisfies(r -> assertThat(r.remaining()).isGreaterThan(SHORT));
              ran[0] = true;
            },
        config(name, SHORT, Duration.ZERO));
    assertThat(ran[0]).isTrue();
    assertUnlocked(name);
  }

  @Test
  void fuzzEightThreadsIncrementAPlainCounterUnderTheLock() throws Exception {
    int threads = 8;
    int iterations = fuzzIterations();
    int[] counter = {0}; // plain, unsynchronised: a lost update shows broken exclusion
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      List<Future<?>> done = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        HostLoomLockProvider own = newProvider(); // a provider per thread, as per instance
        done.add(
            pool.submit(
                () -> {
                  for (int i = 0; i < iterations; ) {
                    Optional<SimpleLock> lock = own.lock(config(name, LONG, Duration.ZERO));
                    if (lock.isEmpty()) {
                      LockSupport.parkNanos(TimeUnit.MICROSECONDS.toNanos(200));
                      continue;
                    }
                    try {
                      int v = counter[0];
                      Thread.yield();
                      counter[0] = v + 1;
                    } finally {
                      lock.get().unlock();
                    }
                    i++;
                  }
                  return null;
                }));
      }
      for (Future<?> f : done) {
        f.get(TestTiming.scaled(Duration.ofMinutes(2)).toMillis(), TimeUnit.MILLISECONDS);
      }
    } finally {
      pool.shutdownNow();
    }
    Optional<SimpleLock> last = lock(LONG);
    assertThat(last).isPresent();
    try {
      assertThat(counter[0]).isEqualTo(threads * iterations);
    } finally {
      last.get().unlock();
    }
  }
}
