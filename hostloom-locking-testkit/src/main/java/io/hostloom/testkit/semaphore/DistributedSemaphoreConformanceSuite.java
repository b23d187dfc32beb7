package io.hostloom.testkit.semaphore;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.hostloom.locking.LockNotAcquiredException;
import io.hostloom.locking.LockOptions;
import io.hostloom.locking.LockRetryPolicy;
import io.hostloom.locking.LockingOptions;
import io.hostloom.locking.semaphore.DistributedSemaphore;
import io.hostloom.locking.semaphore.DistributedSemaphores;
import io.hostloom.locking.semaphore.Permit;
import io.hostloom.locking.semaphore.PermitCountMismatchException;
import io.hostloom.locking.semaphore.Permits;
import io.hostloom.locking.spi.LockBackend;
import io.hostloom.locking.spi.ReleaseSignal;
import io.hostloom.testkit.LockHistory;
import io.hostloom.testkit.TestTiming;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@link DistributedSemaphore} over a backend on a real server (or the in-memory backend on the
 * system clock), with real threads and several "processes" (each a {@link DistributedSemaphores}
 * over its own backend instance): the permit count holds at every instant ({@link
 * PermitHistoryChecker}), many permits are all or nothing, a mismatched permit count is an error, a
 * dead holder's permit comes back at its lease end on the backend's clock and not before, extension
 * after a loss is refused, automatic extension keeps a permit, {@code maxWait} is a hard wall, and
 * a release reaches a waiter (woken where the backend has a {@link ReleaseSignal}).
 *
 * <p>Subclass it in the backend's tests and return a new backend instance with its own connections
 * from {@link #newBackend()}; the suite closes every instance it asked for (when {@link
 * AutoCloseable}). Leases are short ({@link #lease()}) and every wait is bounded; no test asserts a
 * timing. Names are random per test, so the suite may share a server with others.
 */
public abstract class DistributedSemaphoreConformanceSuite {
  private static final Duration WAIT = Duration.ofSeconds(30);

  private final List<AutoCloseable> opened = new ArrayList<>();
  private String backendName = "?";

  /** A new backend instance with its own connections to the shared test server. */
  protected abstract LockBackend newBackend();

  /**
   * The short lease of the expiry scenarios; at least the backend's lease resolution. Default 2 s.
   */
  protected Duration lease() {
    return Duration.ofSeconds(2);
  }

  /**
   * Whether a release by one process wakes a waiting process (a {@link ReleaseSignal} across
   * instances). Default: the backend implements {@link ReleaseSignal}; a backend whose signal only
   * sees its own instance's releases answers {@code false}, and the release then reaches the waiter
   * at its next poll.
   */
  protected boolean releaseWakesWaiters() {
    LockBackend probe = newBackend();
    try {
      return probe instanceof ReleaseSignal;
    } finally {
      if (probe instanceof AutoCloseable c) {
        try {
          c.close();
        } catch (Exception e) {
          // only the type was needed
        }
      }
    }
  }

  /** Threads per process in the concurrent scenario. Default 3. */
  protected int threadsPerProcess() {
    return 3;
  }

  /** Grants each thread takes in the concurrent scenario. Default 8. */
  protected int rounds() {
    return 8;
  }

  @AfterEach
  void closeEverything() throws Exception {
    for (int i = opened.size() - 1; i >= 0; i--) {
      opened.get(i).close();
    }
    opened.clear();
  }

  /** A new "process": its own backend instance and semaphores, closed after the test. */
  protected final DistributedSemaphores process(LockRetryPolicy retry) {
    LockBackend backend = newBackend();
    backendName = backend.name();
    if (backend instanceof AutoCloseable c) {
      opened.add(c);
    }
    DistributedSemaphores s =
        DistributedSemaphores.create(
            LockingOptions.builder()
                .namespace("semconf")
                .defaultLease(lease())
                .retry(retry)
                .build(),
            backend);
    opened.add(s);
    return s;
  }

  private DistributedSemaphores process() {
    return process(
        LockRetryPolicy.interval(200, Duration.ofMillis(100)).withJitter(Duration.ofMillis(50)));
  }

  private static String name() {
    return "sem-" + UUID.randomUUID();
  }

  private static LockOptions waitUpTo(Duration maxWait) {
    return LockOptions.builder().maxWait(TestTiming.scaled(maxWait)).build();
  }

  @Test
  void grantsUpToThePermitCountOnDistinctSlots() {
    String name = name();
    DistributedSemaphore a = process().semaphore(name, 3);
    DistributedSemaphore b = process().semaphore(name, 3);
    Permits p1 = a.tryAcquire().orElseThrow();
    Permits p2 = b.tryAcquire().orElseThrow();
    Permits p3 = a.tryAcquire().orElseThrow();
    assertThat(b.tryAcquire()).isEmpty();
    assertThat(a.tryAcquire()).isEmpty();
    Set<Integer> slots =
        List.of(p1, p2, p3).stream()
            .map(p -> p.permits().get(0).slot())
            .collect(Collectors.toSet());
    assertThat(slots).containsExactlyInAnyOrder(0, 1, 2);
    Permit freed = p2.permits().get(0);
    p2.close();
    try (Permits again = a.tryAcquire().orElseThrow()) {
      assertThat(again.permits().get(0).slot()).isEqualTo(freed.slot());
      assertThat(again.permits().get(0).fencingToken()).isGreaterThan(freed.fencingToken());
      assertThat(again.isCoordinated()).isTrue();
    }
    p1.close();
    p3.close();
  }

  @Test
  void manyPermitsAreAllOrNothing() {
    String name = name();
    DistributedSemaphore a = process().semaphore(name, 3);
    DistributedSemaphore b = process().semaphore(name, 3);
    try (Permits two = a.acquire(2, waitUpTo(Duration.ofSeconds(5)))) {
      assertThat(two.permits()).hasSize(2);
      assertThat(b.tryAcquire(2, LockOptions.SKIP_IF_BUSY)).isEmpty();
      // the refused round gave its permit back: the last free one is still there
      try (Permits one = b.tryAcquire().orElseThrow()) {
        assertThat(one.permits()).hasSize(1);
      }
    }
    try (Permits all = b.tryAcquire(3, LockOptions.SKIP_IF_BUSY).orElseThrow()) {
      assertThat(all.permits()).extracting(Permit::slot).containsExactly(0, 1, 2);
    }
  }

  @Test
  void anotherPermitCountForTheNameIsAnErrorThatHoldsNothing() {
    String name = name();
    DistributedSemaphore one = process().semaphore(name, 1);
    DistributedSemaphore two = process().semaphore(name, 2);
    try (Permits held = one.tryAcquire().orElseThrow()) {
      assertThatThrownBy(() -> two.tryAcquire(2, LockOptions.SKIP_IF_BUSY))
          .isInstanceOfSatisfying(
              PermitCountMismatchException.class, e -> assertThat(e.otherPermits()).isEqualTo(1));
      assertThat(held.isHeld()).isTrue();
    }
    // the mismatched call gave back the slot it had got: both slots are free for the 2-permit side
    try (Permits both = two.tryAcquire(2, LockOptions.SKIP_IF_BUSY).orElseThrow()) {
      assertThat(both.permits()).hasSize(2);
    }
  }

  @Test
  void concurrentHoldersNeverExceedThePermitCount() throws Exception {
    int permits = 2;
    String name = name();
    List<DistributedSemaphore> processes =
        List.of(process().semaphore(name, permits), process().semaphore(name, permits));
    int threads = threadsPerProcess();
    LockOptions options =
        LockOptions.builder()
            .lease(Duration.ofSeconds(20)) // outlives every action: holds end by their exit
            .maxWait(TestTiming.scaled(Duration.ofSeconds(30)))
            .build();
    AtomicInteger inside = new AtomicInteger();
    AtomicInteger maxInside = new AtomicInteger();
    AtomicInteger grants = new AtomicInteger();
    ExecutorService pool = Executors.newFixedThreadPool(2 * threads);
    try (LockHistory history = new LockHistory()) {
      List<Future<?>> workers = new ArrayList<>();
      for (int t = 0; t < 2 * threads; t++) {
        DistributedSemaphore sem = processes.get(t % 2);
        String thread = "t" + t;
        workers.add(
            pool.submit(
                () -> {
                  for (int r = 0; r < rounds(); r++) {
                    int count = ThreadLocalRandom.current().nextInt(1, permits + 1);
                    long sent = LockHistory.now();
                    try (Permits p = sem.acquire(count, options)) {
                      List<LockHistory.Hold> holds = new ArrayList<>();
                      for (Permit permit : p.permits()) {
                        holds.add(
                            history.enter(
                                name + "#" + permit.slot(),
                                thread + "-r" + r + "-s" + permit.slot(),
                                permit.fencingToken(),
                                sent,
                                Duration.ofSeconds(20)));
                      }
                      int now = inside.addAndGet(count);
                      maxInside.accumulateAndGet(now, Math::max);
                      Thread.onSpinWait();
                      inside.addAndGet(-count);
                      holds.forEach(LockHistory.Hold::exit);
                      grants.incrementAndGet();
                    }
                  }
                  return null;
                }));
      }
      for (Future<?> w : workers) {
        w.get(180, TimeUnit.SECONDS);
      }
      PermitHistoryReport report = PermitHistoryChecker.check(history.events(), permits);
      report.assertNoViolations();
      assertThat(maxInside.get()).isLessThanOrEqualTo(permits);
      assertThat(grants).hasValue(2 * threads * rounds());
      System.out.println("[semaphore over " + backendName + "] " + report.summary());
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void aDeadHoldersPermitComesBackAtItsLeaseEndAndNotBefore() {
    String name = name();
    DistributedSemaphore dead = process().semaphore(name, 1);
    DistributedSemaphore waiter = process().semaphore(name, 1);
    try (LockHistory history = new LockHistory()) {
      long sent = LockHistory.now();
      Permits gone =
          dead.acquire(1, LockOptions.builder().lease(lease()).autoExtend(false).build());
      history.enter(name + "#0", "dead", gone.permits().get(0).fencingToken(), sent, lease());
      // "dies": never releases, never extends
      long waiterSent = LockHistory.now();
      try (Permits got = waiter.acquire(1, waitUpTo(Duration.ofSeconds(30)))) {
        Permit p = got.permits().get(0);
        LockHistory.Hold h =
            history.enter(name + "#0", "waiter", p.fencingToken(), waiterSent, lease());
        assertThat(p.fencingToken()).isGreaterThan(gone.permits().get(0).fencingToken());
        h.exit();
      }
      PermitHistoryChecker.check(history.events(), 1).assertNoViolations();
      assertThat(gone.isHeld()).isFalse();
    }
  }

  @Test
  void extendingAfterALossIsRefusedAndLeavesTheSuccessorAlone() {
    String name = name();
    DistributedSemaphore stale = process().semaphore(name, 1);
    DistributedSemaphore next = process().semaphore(name, 1);
    Permits old = stale.acquire(1, LockOptions.builder().lease(lease()).autoExtend(false).build());
    TestTiming.await("the stale permit's lease ran out", () -> !old.isHeld(), WAIT);
    try (Permits successor = next.acquire(1, waitUpTo(Duration.ofSeconds(30)))) {
      assertThat(old.permits().get(0).lease().extend(Duration.ofSeconds(30))).isFalse();
      old.close(); // an owner-checked release: refused, the successor keeps its permit
      assertThat(successor.isHeld()).isTrue();
      assertThat(stale.tryAcquire()).isEmpty();
    }
  }

  @Test
  void automaticExtensionKeepsAPermitPastItsLease() {
    String name = name();
    DistributedSemaphore holder = process().semaphore(name, 1);
    DistributedSemaphore other = process().semaphore(name, 1);
    try (Permits kept =
        holder.acquire(1, LockOptions.builder().lease(lease()).autoExtend(true).build())) {
      TestTiming.pass(lease().multipliedBy(2));
      assertThat(kept.isHeld()).isTrue();
      assertThat(other.tryAcquire()).isEmpty();
    }
    try (Permits after = other.tryAcquire().orElseThrow()) {
      assertThat(after.isHeld()).isTrue();
    }
  }

  @Test
  void maxWaitIsAHardWall() {
    String name = name();
    DistributedSemaphore a = process().semaphore(name, 1);
    DistributedSemaphore b = process().semaphore(name, 1);
    try (Permits held = a.tryAcquire().orElseThrow()) {
      LockOptions shortWait = LockOptions.builder().maxWait(Duration.ofMillis(400)).build();
      assertThatThrownBy(() -> b.acquire(1, shortWait))
          .isInstanceOf(LockNotAcquiredException.class);
      assertThat(b.tryAcquire(1, shortWait)).isEmpty();
      assertThat(held.isHeld()).isTrue();
    }
  }

  @Test
  void aReleaseReachesAWaiter() throws Exception {
    String name = name();
    DistributedSemaphore holder = process().semaphore(name, 2);
    boolean signals = releaseWakesWaiters();
    // with a release signal one retry after a minute: only the wake-up ends the wait in bounds
    DistributedSemaphore waiter =
        process(
                signals
                    ? LockRetryPolicy.interval(1, Duration.ofMinutes(1))
                    : LockRetryPolicy.interval(100, Duration.ofMillis(200)))
            .semaphore(name, 2);
    Permits a = holder.tryAcquire().orElseThrow();
    Permits b = holder.tryAcquire().orElseThrow();
    CompletableFuture<Permits> waiting =
        CompletableFuture.supplyAsync(() -> waiter.acquire(1, LockOptions.DEFAULTS));
    TestTiming.pass(Duration.ofMillis(300)); // let the waiter's first round be refused
    assertThat(waiting).isNotDone();
    b.close();
    try (Permits got = TestTiming.get(waiting, Duration.ofSeconds(20))) {
      assertThat(got.permits().get(0).slot()).isEqualTo(b.permits().get(0).slot());
    }
    a.close();
  }
}
