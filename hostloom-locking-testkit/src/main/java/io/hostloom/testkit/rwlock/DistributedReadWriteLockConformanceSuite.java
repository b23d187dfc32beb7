package io.hostloom.testkit.rwlock;

import static org.assertj.core.api.Assertions.assertThat;

import io.hostloom.locking.LockNotAcquiredException;
import io.hostloom.locking.LockOptions;
import io.hostloom.locking.LockingOptions;
import io.hostloom.locking.LossReason;
import io.hostloom.locking.rwlock.DistributedReadWriteLock;
import io.hostloom.locking.rwlock.ReadWriteHandle;
import io.hostloom.locking.spi.AcquireOutcome;
import io.hostloom.locking.spi.LockBackend;
import io.hostloom.locking.spi.ReadWriteLeases;
import io.hostloom.locking.spi.ReleaseSignal;
import io.hostloom.locking.testing.ForwardingLockBackend;
import io.hostloom.testkit.TestTiming;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@link DistributedReadWriteLock} over a backend on a <em>real</em> server, with real threads and
 * two lock instances ("processes", each with its own backend instance): readers share, a writer
 * excludes everyone, a waiting writer blocks new readers and is not starved by a stream of them
 * (bounded in grants), a dead holder's grant comes back when its lease ends, loss and automatic
 * extension behave as the lock's, and every history passes {@link ReadWriteHistoryChecker}.
 *
 * <p>Subclass it in the backend's tests and return a new backend instance from {@link
 * #newBackend()}; the suite closes every instance it asked for (when {@link AutoCloseable}).
 */
public abstract class DistributedReadWriteLockConformanceSuite {
  /** A new backend instance with its own connections to the shared test server. */
  protected abstract LockBackend newBackend();

  /** A lease short enough to wait out. Default 500 ms; Azure overrides it (15 s minimum). */
  protected Duration shortLease() {
    return Duration.ofMillis(500);
  }

  /** A lease that never runs out during a test. Default 30 s. */
  protected Duration longLease() {
    return Duration.ofSeconds(30);
  }

  /** Reader slots of both lock instances. Default 4. */
  protected int readerSlots() {
    return 4;
  }

  /** How long a test waits for one step. Default 30 s, scaled. */
  protected Duration stepTimeout() {
    return TestTiming.scaled(Duration.ofSeconds(30));
  }

  private final List<LockBackend> backends = new ArrayList<>();
  private final List<DistributedReadWriteLock> locks = new ArrayList<>();
  private WriteKeyGrants grants;
  private DistributedReadWriteLock one;
  private DistributedReadWriteLock two;
  private String name;

  @BeforeEach
  void openTwoInstances() {
    one = open(newBackend());
    grants = new WriteKeyGrants(newBackend());
    backends.add(grants.inner());
    two = open(grants);
    name = "rw-" + UUID.randomUUID();
  }

  private DistributedReadWriteLock open(LockBackend b) {
    if (b != grants) {
      backends.add(b);
    }
    DistributedReadWriteLock l =
        DistributedReadWriteLock.builder(LockingOptions.of("rwsuite"), b)
            .readerSlots(readerSlots())
            .build();
    locks.add(l);
    return l;
  }

  @AfterEach
  void closeAll() throws Exception {
    locks.forEach(DistributedReadWriteLock::close);
    for (LockBackend b : backends) {
      if (b instanceof AutoCloseable c) {
        c.close();
      }
    }
  }

  private LockOptions waiting() {
    return LockOptions.builder().lease(longLease()).maxWait(stepTimeout()).build();
  }

  private LockOptions skip() {
    return LockOptions.builder().lease(longLease()).maxWait(Duration.ZERO).build();
  }

  @Test
  void readersShareAndAWriterExcludesEveryone() {
    ReadWriteHandle r1 = one.acquireRead(name, waiting());
    ReadWriteHandle r2 = two.acquireRead(name, waiting());
    assertThat(r1.isHeld() && r2.isHeld()).isTrue();
    assertThat(r1.mode()).isEqualTo(ReadWriteHandle.Mode.READ);
    assertThat(one.tryAcquireWrite(name, skip())).isEmpty();
    assertThat(two.tryAcquireWrite(name, skip())).isEmpty();
    r1.close();
    r2.close();
    ReadWriteHandle w = two.acquireWrite(name, waiting());
    try {
      assertThat(w.mode()).isEqualTo(ReadWriteHandle.Mode.WRITE);
      assertThat(w.key()).isEqualTo(name);
      assertThat(w.fencingToken()).isGreaterThan(Math.max(r1.fencingToken(), r2.fencingToken()));
      assertThat(one.tryAcquireRead(name, skip())).isEmpty();
      assertThat(one.tryAcquireWrite(name, skip())).isEmpty();
    } finally {
      w.close();
    }
    try (ReadWriteHandle r3 = one.acquireRead(name, waiting());
        ReadWriteHandle w2 = acquireAfter(r3)) {
      assertThat(r3.fencingToken()).isGreaterThanOrEqualTo(w.fencingToken());
      assertThat(w2.fencingToken()).isGreaterThan(r3.fencingToken());
    }
  }

  private ReadWriteHandle acquireAfter(ReadWriteHandle reader) {
    reader.close();
    return two.acquireWrite(name, waiting());
  }

  @Test
  void aWaitingWriterBlocksNewReadersAndGetsInWhenTheReadersLeave() throws Exception {
    ReadWriteHandle reader = one.acquireRead(name, waiting());
    CompletableFuture<Optional<ReadWriteHandle>> writer = two.tryAcquireWriteAsync(name, waiting());
    TestTiming.await(
        "the writer holds the write key and waits for the reader",
        () -> grants.count.get() == 1,
        stepTimeout());
    assertThat(writer).isNotDone();
    assertThat(one.tryAcquireRead(name, skip())).as("a new reader while a writer waits").isEmpty();
    assertThat(two.tryAcquireRead(name, skip())).isEmpty();
    reader.close();
    try (ReadWriteHandle w = TestTiming.get(writer, stepTimeout()).orElseThrow()) {
      assertThat(w.isHeld()).isTrue();
      assertThat(w.fencingToken()).isGreaterThan(reader.fencingToken());
    }
  }

  @Test
  void aStreamOfReadersDoesNotStarveAWriter() throws Exception {
    int readers = readerSlots() + 2;
    ReadWriteHistory history = new ReadWriteHistory();
    AtomicBoolean stop = new AtomicBoolean();
    AtomicInteger reads = new AtomicInteger();
    ExecutorService pool = Executors.newFixedThreadPool(readers);
    try {
      List<Future<?>> workers = new ArrayList<>();
      for (int t = 0; t < readers; t++) {
        DistributedReadWriteLock lock = t % 2 == 0 ? one : two;
        String label = "reader-" + t;
        workers.add(
            pool.submit(
                () -> {
                  int round = 0;
                  while (!stop.get()) {
                    long sent = ReadWriteHistory.now();
                    try (ReadWriteHandle h = lock.acquireRead(name, waiting())) {
                      ReadWriteHistory.Hold hold =
                          history.enter(h, label + "-" + round++, sent, longLease());
                      reads.incrementAndGet();
                      Thread.sleep(20); // readers overlap: some reader always holds
                      hold.exit();
                    } catch (LockNotAcquiredException e) {
                      // the writer kept it past the retry budget: try again
                    }
                  }
                  return null;
                }));
      }
      TestTiming.await("readers stream", () -> reads.get() >= 2 * readers, stepTimeout());
      long sent = ReadWriteHistory.now();
      try (ReadWriteHandle w = two.acquireWrite(name, waiting())) {
        ReadWriteHistory.Hold hold = history.enter(w, "writer", sent, longLease());
        hold.exit();
      }
      stop.set(true);
      for (Future<?> f : workers) {
        f.get(stepTimeout().toMillis(), TimeUnit.MILLISECONDS);
      }
      long writeKeySeen = grants.firstSeen.get();
      ReadWriteHold write =
          history.holds().stream().filter(ReadWriteHold::write).findFirst().orElseThrow();
      long readsAfterWriteKey =
          history.holds().stream()
              .filter(h -> !h.write())
              .filter(h -> h.grantedNanos() - writeKeySeen > 0)
              .filter(h -> h.grantedNanos() - write.grantedNanos() < 0)
              .count();
      System.out.println(
          "[rwlock starvation over "
              + grants.inner().name()
              + "] "
              + reads.get()
              + " reads by "
              + readers
              + " threads; "
              + readsAfterWriteKey
              + " read grants between the writer's write key and its grant (bound "
              + readerSlots()
              + ")");
      assertThat(readsAfterWriteKey)
          .as("read grants after the writer took the write key")
          .isLessThanOrEqualTo(readerSlots());
      history.check().assertNoViolations();
    } finally {
      stop.set(true);
      pool.shutdownNow();
    }
  }

  @Test
  void readersAndWritersOnTwoInstancesKeepExclusionAndTokenOrder() throws Exception {
    ReadWriteHistory history = new ReadWriteHistory();
    int threads = 6;
    int rounds = 8;
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    AtomicLong busy = new AtomicLong();
    try {
      List<Future<?>> workers = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        DistributedReadWriteLock lock = t % 2 == 0 ? one : two;
        boolean writer = t < 2;
        String label = (writer ? "w" : "r") + t;
        workers.add(
            pool.submit(
                () -> {
                  int done = 0;
                  while (done < rounds) {
                    long sent = ReadWriteHistory.now();
                    try (ReadWriteHandle h =
                        writer
                            ? lock.acquireWrite(name, waiting())
                            : lock.acquireRead(name, waiting())) {
                      ReadWriteHistory.Hold hold =
                          history.enter(h, label + "-" + done, sent, longLease());
                      Thread.sleep(5); // the hold spans real time, so an overlap shows
                      hold.exit();
                      done++;
                    } catch (LockNotAcquiredException e) {
                      busy.incrementAndGet();
                    }
                  }
                  return null;
                }));
      }
      for (Future<?> f : workers) {
        f.get(3 * stepTimeout().toMillis(), TimeUnit.MILLISECONDS);
      }
      assertThat(history.holds()).hasSize(threads * rounds);
      history.check().assertNoViolations();
      System.out.println(
          "[rwlock mixed over "
              + grants.inner().name()
              + "] "
              + threads * rounds
              + " grants, 0 violations; retry budget ran out "
              + busy.get()
              + " times");
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void aDeadReadersGrantComesBackWhenItsLeaseEndsNotBefore() {
    long sent = ReadWriteHistory.now();
    ReadWriteHandle dead =
        one.acquireRead(
            name, LockOptions.builder().lease(shortLease()).maxWait(stepTimeout()).build());
    ReadWriteHistory history = new ReadWriteHistory();
    history.enter(dead, "dead-reader", sent, shortLease()); // never exits: its process "died"
    one.close(); // no heartbeat, no release: only the lease ends it
    long wSent = ReadWriteHistory.now();
    try (ReadWriteHandle w = two.acquireWrite(name, waiting())) {
      history.enter(w, "writer", wSent, longLease()).exit();
      assertThat(w.fencingToken()).isGreaterThan(dead.fencingToken());
    }
    history.check().assertNoViolations();
  }

  @Test
  void aReadHandleIsLostWhenItsLeaseRunsOutAndAutoExtensionKeepsItHeld() throws Exception {
    ReadWriteHandle extended =
        one.acquireRead(
            name,
            LockOptions.builder()
                .lease(shortLease())
                .autoExtend(true)
                .maxWait(stepTimeout())
                .build());
    ReadWriteHandle expiring =
        two.acquireRead(
            name, LockOptions.builder().lease(shortLease()).maxWait(stepTimeout()).build());
    assertThat(TestTiming.get(expiring.lost(), stepTimeout())).isEqualTo(LossReason.EXPIRED);
    assertThat(expiring.isHeld()).isFalse();
    TestTiming.pass(shortLease().multipliedBy(2));
    assertThat(extended.isHeld()).as("kept by heartbeats past two leases").isTrue();
    assertThat(two.tryAcquireWrite(name, skip())).isEmpty();
    extended.close();
    try (ReadWriteHandle w = two.acquireWrite(name, waiting())) {
      assertThat(w.isHeld()).isTrue();
    }
    expiring.close();
  }

  @Test
  void fullReaderSlotsMakeTheNextReaderWait() throws Exception {
    List<ReadWriteHandle> in = new ArrayList<>();
    for (int i = 0; i < readerSlots(); i++) {
      in.add((i % 2 == 0 ? one : two).acquireRead(name, waiting()));
    }
    assertThat(one.tryAcquireRead(name, skip())).isEmpty();
    CompletableFuture<Optional<ReadWriteHandle>> next = two.tryAcquireReadAsync(name, waiting());
    in.remove(0).close();
    try (ReadWriteHandle h = TestTiming.get(next, stepTimeout()).orElseThrow()) {
      assertThat(h.isHeld()).isTrue();
    }
    in.forEach(ReadWriteHandle::close);
  }

  /**
   * Instance two's backend: sees when a writer is in, i.e. from when no new reader is granted: the
   * generic write key granted, or (native, over {@link ReadWriteLeases} views, which it passes on
   * with the release signal) the writer's entry granted or recorded as waiting. Counts writers.
   */
  private static final class WriteKeyGrants extends ForwardingLockBackend
      implements ReadWriteLeases, ReleaseSignal {
    final AtomicInteger count = new AtomicInteger();
    final AtomicLong firstSeen = new AtomicLong();
    private final Set<String> writers = ConcurrentHashMap.newKeySet();

    WriteKeyGrants(LockBackend delegate) {
      super(delegate);
    }

    LockBackend inner() {
      return delegate;
    }

    private void writerIn(String owner) {
      if (writers.add(owner) && count.getAndIncrement() == 0) {
        firstSeen.set(ReadWriteHistory.now());
      }
    }

    @Override
    public CompletableFuture<AcquireOutcome> acquire(
        String key, String owner, String data, Duration lease) {
      return super.acquire(key, owner, data, lease)
          .whenComplete(
              (o, e) -> {
                if (o != null && o.granted() && key.endsWith("/w")) {
                  writerIn(owner);
                }
              });
    }

    @Override
    public CompletableFuture<Boolean> awaitRelease(String key, Duration maxWait) {
      return delegate instanceof ReleaseSignal s
          ? s.awaitRelease(key, maxWait)
          : CompletableFuture.completedFuture(false);
    }

    @Override
    public Optional<Views> readWriteViews(int maxReaders) {
      if (!(delegate instanceof ReadWriteLeases rw)) {
        return Optional.empty();
      }
      return rw.readWriteViews(maxReaders)
          .map(v -> new Views(v.read(), new WriterSeen(v.write(), this)));
    }
  }

  /** A native write view that tells {@link WriteKeyGrants} when its writer is in. */
  private static final class WriterSeen extends ForwardingLockBackend {
    private final WriteKeyGrants grants;

    WriterSeen(LockBackend view, WriteKeyGrants grants) {
      super(view);
      this.grants = grants;
    }

    @Override
    public CompletableFuture<AcquireOutcome> acquire(
        String key, String owner, String data, Duration lease) {
      return super.acquire(key, owner, data, lease)
          .thenCompose(
              o -> {
                if (o.granted()) {
                  grants.writerIn(owner);
                  return CompletableFuture.completedFuture(o);
                }
                // refused: waiting (in) when the view's writer entry is this owner's
                return delegate
                    .read(key)
                    .handle(
                        (r, e) -> {
                          if (r != null && r.isPresent() && r.get().owner().equals(owner)) {
                            grants.writerIn(owner);
                          }
                          return o;
                        });
              });
    }
  }
}
