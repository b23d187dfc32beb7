package io.hostloom.locking.rwlock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.hostloom.locking.DistributedLock;
import io.hostloom.locking.LockHandle;
import io.hostloom.locking.LockInterruptedException;
import io.hostloom.locking.LockNotAcquiredException;
import io.hostloom.locking.LockOptions;
import io.hostloom.locking.LockRetryPolicy;
import io.hostloom.locking.LockingOptions;
import io.hostloom.locking.LossReason;
import io.hostloom.locking.OnLost;
import io.hostloom.locking.memory.InMemoryLockBackend;
import io.hostloom.locking.rwlock.ReadWriteHandle.Mode;
import io.hostloom.locking.testing.CountingLockBackend;
import io.hostloom.locking.testing.CountingLockBackend.Operation;
import io.hostloom.locking.testing.ManualLockClock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** The reader-writer protocol on the manual clock over the in-memory backend: no sleeping. */
class ReadWriteLockTest {
  private static final Duration STEP = Duration.ofMillis(50);

  private final ManualLockClock clock = new ManualLockClock();
  private final CountingLockBackend backend =
      new CountingLockBackend(new InMemoryLockBackend(clock));

  private DistributedReadWriteLock lock(int slots) {
    return DistributedReadWriteLock.builder(
            LockingOptions.builder()
                .namespace("rw")
                .retry(LockRetryPolicy.interval(1000, STEP))
                .build(),
            backend)
        .clock(clock)
        .readerSlots(slots)
        .build();
  }

  private static LockOptions waitUpTo(Duration maxWait) {
    return LockOptions.builder().lease(Duration.ofMinutes(1)).maxWait(maxWait).build();
  }

  private static final LockOptions SKIP = waitUpTo(Duration.ZERO);

  private static <T> T now(CompletableFuture<T> f) {
    assertThat(f).isDone();
    return f.join();
  }

  @Test
  void aWaitingWriterBlocksNewReadersSoItsWaitIsBoundedByTheReadersAlreadyIn() {
    try (DistributedReadWriteLock rw = lock(8)) {
      ReadWriteHandle first = rw.acquireRead("doc", SKIP);
      ReadWriteHandle second = rw.acquireRead("doc", SKIP);
      var writer = rw.tryAcquireWriteAsync("doc", waitUpTo(Duration.ofMinutes(1)));
      assertThat(writer).isNotDone(); // holds the write key, waits for two readers
      List<CompletableFuture<Optional<ReadWriteHandle>>> later = new ArrayList<>();
      for (int i = 0; i < 5; i++) {
        later.add(rw.tryAcquireReadAsync("doc", waitUpTo(Duration.ofMinutes(1))));
        clock.advance(STEP);
      }
      first.close();
      clock.advance(STEP);
      assertThat(later).noneMatch(CompletableFuture::isDone); // no reader overtakes the writer
      assertThat(writer).isNotDone();
      second.close();
      clock.advance(STEP);
      ReadWriteHandle w = now(writer).orElseThrow();
      assertThat(w.mode()).isEqualTo(Mode.WRITE);
      assertThat(w.fencingToken()).isGreaterThan(second.fencingToken());
      clock.advance(STEP.multipliedBy(3));
      assertThat(later).noneMatch(CompletableFuture::isDone);
      w.close();
      clock.advance(STEP);
      for (var r : later) {
        try (ReadWriteHandle h = now(r).orElseThrow()) {
          assertThat(h.fencingToken()).isGreaterThanOrEqualTo(w.fencingToken());
        }
      }
    }
  }

  @Test
  void readersShareUpToTheirSlotsAndTheNextOneWaitsForAFreeSlot() {
    try (DistributedReadWriteLock rw = lock(3)) {
      List<ReadWriteHandle> in = new ArrayList<>();
      for (int i = 0; i < 3; i++) {
        in.add(rw.acquireRead("doc", SKIP));
      }
      assertThat(in).allMatch(LockHandle::isHeld);
      assertThat(rw.tryAcquireRead("doc", SKIP)).isEmpty();
      assertThatThrownBy(() -> rw.acquireRead("doc", SKIP))
          .isInstanceOf(LockNotAcquiredException.class)
          .hasMessageContaining("'doc'");
      var next = rw.tryAcquireReadAsync("doc", waitUpTo(Duration.ofSeconds(1)));
      in.get(1).close();
      clock.advance(STEP);
      assertThat(now(next)).isPresent();
      in.forEach(ReadWriteHandle::close);
    }
  }

  @Test
  void maxWaitBoundsTheWritersWaitForReadersAndTheWriteKeyIsGivenBack() {
    try (DistributedReadWriteLock rw = lock(2)) {
      ReadWriteHandle reader = rw.acquireRead("doc", SKIP);
      var writer = rw.tryAcquireWriteAsync("doc", waitUpTo(Duration.ofMillis(200)));
      clock.advance(Duration.ofMillis(100));
      assertThat(writer).isNotDone();
      clock.advance(STEP); // at 150 ms the next 50 ms delay would reach maxWait: given up
      assertThat(now(writer)).isEmpty();
      assertThat(rw.tryAcquireRead("doc", SKIP)).as("write key released").isPresent();
      reader.close();
    }
  }

  @Test
  void theWriteKeyIsExtendedWhileTheWriterWaitsAndTheGrantStartsWithAFullLease() {
    try (DistributedReadWriteLock rw = lock(1)) {
      ReadWriteHandle reader = rw.acquireRead("doc", SKIP);
      Duration lease = Duration.ofSeconds(1);
      var writer =
          rw.tryAcquireWriteAsync(
              "doc", LockOptions.builder().lease(lease).maxWait(Duration.ofMinutes(1)).build());
      for (int i = 0; i < 60; i++) { // 3 s: three leases
        clock.advance(STEP);
      }
      assertThat(writer).isNotDone();
      assertThat(rw.tryAcquireWrite("doc", SKIP)).as("still the waiting writer's").isEmpty();
      reader.close();
      clock.advance(STEP);
      try (ReadWriteHandle w = now(writer).orElseThrow()) {
        assertThat(w.isHeld()).isTrue();
        assertThat(Duration.between(clock.instant(), w.leaseEnd())).isEqualTo(lease);
      }
    }
  }

  @Test
  void aReadIsLostWhenItsLeaseEndsAndAWriterGetsInAfterIt() {
    try (DistributedReadWriteLock rw = lock(2)) {
      ReadWriteHandle reader =
          rw.acquireRead("doc", LockOptions.builder().lease(Duration.ofSeconds(1)).build());
      var writer = rw.tryAcquireWriteAsync("doc", waitUpTo(Duration.ofMinutes(1)));
      clock.advance(Duration.ofMillis(950));
      assertThat(writer).isNotDone();
      assertThat(reader.lost()).isNotDone();
      clock.advance(STEP);
      assertThat(now(reader.lost())).isEqualTo(LossReason.EXPIRED);
      clock.advance(STEP);
      try (ReadWriteHandle w = now(writer).orElseThrow()) {
        assertThat(w.fencingToken()).isGreaterThan(reader.fencingToken());
      }
    }
  }

  @Test
  void writeTokensOrderEveryEarlierGrantAndReadsFollowEarlierWrites() {
    try (DistributedReadWriteLock rw = lock(2)) {
      long last = 0;
      for (int i = 0; i < 5; i++) {
        ReadWriteHandle a = rw.acquireRead("doc", SKIP);
        ReadWriteHandle b = rw.acquireRead("doc", SKIP);
        assertThat(a.fencingToken()).isGreaterThanOrEqualTo(last);
        assertThat(b.fencingToken()).isGreaterThanOrEqualTo(last);
        a.close();
        b.close();
        try (ReadWriteHandle w = rw.acquireWrite("doc", SKIP)) {
          assertThat(w.fencingToken()).isGreaterThan(Math.max(a.fencingToken(), b.fencingToken()));
          last = w.fencingToken();
        }
      }
    }
  }

  @Test
  void roundTripsOfUncontendedGrants() {
    try (DistributedReadWriteLock rw = lock(4)) {
      backend.reset();
      ReadWriteHandle r = rw.acquireRead("doc", SKIP);
      // slot, write key read, token draw + its release
      assertThat(backend.count(Operation.ACQUIRE)).isEqualTo(2);
      assertThat(backend.count(Operation.READ)).isEqualTo(1);
      assertThat(backend.count(Operation.RELEASE)).isEqualTo(1);
      r.close();
      backend.reset();
      ReadWriteHandle w = rw.acquireWrite("doc", SKIP);
      // write key, every slot read (sent together), token draw + its release
      assertThat(backend.count(Operation.ACQUIRE)).isEqualTo(2);
      assertThat(backend.count(Operation.READ)).isEqualTo(4);
      assertThat(backend.count(Operation.RELEASE)).isEqualTo(1);
      assertThat(backend.total()).isEqualTo(7);
      w.close();
    }
  }

  @Test
  void theLocksKeysLeaveTheLocksOfTheNamespaceAlone() {
    try (DistributedReadWriteLock rw = lock(2);
        DistributedLock plain =
            DistributedLock.builder(LockingOptions.of("rw"), backend).clock(clock).build();
        LockHandle h = plain.acquire("doc/w", SKIP);
        LockHandle s = plain.acquire("doc/r/0", SKIP);
        ReadWriteHandle w = rw.acquireWrite("doc", SKIP)) {
      assertThat(h.isHeld() && s.isHeld() && w.isHeld()).isTrue();
    }
  }

  @Test
  void interruptionAbandonsTheWaitAndGivesBackTheWriteKey() throws Exception {
    try (DistributedReadWriteLock rw = lock(1)) {
      ReadWriteHandle reader = rw.acquireRead("doc", SKIP);
      backend.reset();
      AtomicReference<Throwable> thrown = new AtomicReference<>();
      Thread t =
          new Thread(
              () -> {
                try {
                  rw.acquireWrite("doc", waitUpTo(Duration.ofMinutes(1)));
                } catch (Throwable e) {
                  thrown.set(e);
                }
              });
      t.start();
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
      while (backend.count(Operation.READ) < 1 && System.nanoTime() < deadline) {
        Thread.onSpinWait(); // the writer holds the write key and read the slot
      }
      t.interrupt();
      t.join(10_000);
      assertThat(thrown.get()).isInstanceOf(LockInterruptedException.class);
      reader.close();
      assertThat(rw.tryAcquireWrite("doc", SKIP)).as("the write key was released").isPresent();
    }
  }

  @Test
  void onLostCancelInterruptsTheActionAndClosingTheLockEndsAcquisitionsInFlight() throws Exception {
    DistributedReadWriteLock rw = lock(1);
    CountDownLatch inside = new CountDownLatch(1);
    CompletableFuture<Throwable> action = new CompletableFuture<>();
    Thread t =
        new Thread(
            () -> {
              try {
                rw.executeWithWriteLock(
                    "doc",
                    LockOptions.builder()
                        .lease(Duration.ofSeconds(1))
                        .onLost(OnLost.CANCEL)
                        .build(),
                    h -> {
                      inside.countDown();
                      Thread.sleep(60_000); // ended by the loss's interrupt
                      return null;
                    });
                action.complete(null);
              } catch (Throwable e) {
                action.complete(e);
              }
            });
    t.start();
    assertThat(inside.await(10, TimeUnit.SECONDS)).isTrue();
    clock.advance(Duration.ofSeconds(1));
    assertThat(action.get(10, TimeUnit.SECONDS)).isInstanceOf(InterruptedException.class);

    ReadWriteHandle reader = rw.acquireRead("other", SKIP);
    var writer = rw.tryAcquireWriteAsync("other", waitUpTo(Duration.ofMinutes(1)));
    rw.close();
    assertThat(writer).isCompletedExceptionally();
    assertThatThrownBy(writer::join).hasCauseInstanceOf(IllegalStateException.class);
    assertThatThrownBy(() -> rw.acquireRead("doc", SKIP)).isInstanceOf(IllegalStateException.class);
    assertThat(reader.isHeld()).as("granted handles keep working").isTrue();
    reader.close();
  }

  @Test
  void builderAndArgumentChecks() {
    var b = DistributedReadWriteLock.builder(LockingOptions.of("rw"), backend);
    assertThatThrownBy(() -> b.readerSlots(0)).hasMessageContaining("but was 0");
    assertThatThrownBy(() -> b.readerSlots(65)).hasMessageContaining("1..64");
    assertThatThrownBy(
            () ->
                DistributedReadWriteLock.create(
                    LockingOptions.builder().namespace("rw").enabled(false).build(), backend))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("hostloom.locking.enabled");
    try (DistributedReadWriteLock rw = lock(2)) {
      assertThatThrownBy(() -> rw.acquireRead("has space", SKIP))
          .isInstanceOf(IllegalArgumentException.class);
      assertThat(rw.readerSlots()).isEqualTo(2);
    }
  }
}
