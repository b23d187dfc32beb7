package io.hostloom.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.hostloom.locking.LockFailureKind;
import io.hostloom.locking.LockOptions;
import io.hostloom.locking.LockingOptions;
import io.hostloom.locking.rwlock.DistributedReadWriteLock;
import io.hostloom.locking.semaphore.DistributedSemaphore;
import io.hostloom.locking.semaphore.DistributedSemaphores;
import io.hostloom.locking.semaphore.Permit;
import io.hostloom.locking.semaphore.PermitCountMismatchException;
import io.hostloom.locking.semaphore.Permits;
import io.hostloom.locking.spi.AcquireOutcome;
import io.hostloom.locking.spi.LockBackend;
import io.hostloom.locking.spi.LockBackendException;
import io.hostloom.locking.spi.ReadWriteLeases;
import io.hostloom.testkit.TestTiming;
import io.hostloom.testkit.WithoutNativeViews;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The native views of {@link JdbcLockBackend} on a real server: their answers (writer preference,
 * the waiting entry, slots and tokens, a count mismatch), expiry on the server's clock, the release
 * signal of a view key, statements per acquisition counted on the JDBC level ({@link
 * CountingDataSource}) against the generic constructions on the same database. Grants racing from
 * many threads and backends are the testkit's view suites' ({@code JdbcPermitViewTest}, {@code
 * JdbcReadWriteViewsTest} and the MariaDB ones).
 */
abstract class NativeViewsSuite {
  static final Duration LONG = Duration.ofSeconds(60);
  static final Duration WAIT = Duration.ofSeconds(20);

  private final List<AutoCloseable> opened = new ArrayList<>();
  private CountingDataSource counting;
  private JdbcLockBackend counted;

  /** The pool of the shared test database (its tables created). */
  protected abstract DataSource pool();

  /** A builder of a backend of this engine over {@code dataSource}, signal on. */
  protected abstract JdbcLockBackend.Builder builder(DataSource dataSource);

  @BeforeEach
  void countedBackend() {
    counting = new CountingDataSource(pool());
    counted = open(builder(counting).build());
    TestTiming.get(counted.warmUp(), WAIT);
  }

  @AfterEach
  void closeAll() throws Exception {
    Collections.reverse(opened);
    for (AutoCloseable c : opened) {
      c.close();
    }
  }

  private <T extends AutoCloseable> T open(T c) {
    opened.add(c);
    return c;
  }

  private JdbcLockBackend other() {
    return open(builder(pool()).build());
  }

  private static String key() {
    return "views-" + UUID.randomUUID();
  }

  private static <T> T await(CompletableFuture<T> f) {
    return TestTiming.get(f, WAIT);
  }

  private static LockOptions waiting() {
    return LockOptions.builder().lease(LONG).maxWait(Duration.ofSeconds(30)).build();
  }

  private LockingOptions options() {
    return LockingOptions.builder().namespace("views").defaultLease(LONG).build();
  }

  @Test
  void theReadWriteViewsAnswerWriterPreference() {
    ReadWriteLeases.Views v = counted.readWriteViews(2).orElseThrow();
    String key = key();
    long r1 = await(v.read().acquire(key, "r1", "d1", LONG)).fencingToken();
    assertThat(await(v.read().acquire(key, "r1", "", LONG)).fencingToken())
        .as("a re-acquire by the reader keeps its token")
        .isEqualTo(r1);
    AcquireOutcome w = await(v.write().acquire(key, "w", "dw", LONG));
    assertThat(w.granted()).isFalse();
    assertThat(w.holder().orElseThrow().owner()).as("refused with the reader").isEqualTo("r1");
    assertThat(w.holder().orElseThrow().data()).isEqualTo("d1");
    AcquireOutcome r2 = await(v.read().acquire(key, "r2", "", LONG));
    assertThat(r2.granted()).as("a new reader behind a waiting writer").isFalse();
    assertThat(r2.holder().orElseThrow().owner()).isEqualTo("w");
    assertThat(r2.holder().orElseThrow().fencingToken()).as("a waiting writer").isZero();
    assertThat(await(v.write().acquire(key, "w2", "", LONG)).holder().orElseThrow().owner())
        .as("another writer meets the waiting one")
        .isEqualTo("w");
    assertThat(await(v.write().read(key)).orElseThrow().owner()).isEqualTo("w");
    assertThat(await(v.read().read(key)).orElseThrow().owner()).isEqualTo("r1");
    assertThat(await(v.write().extend(key, "w", LONG)).extended())
        .as("a waiting entry is not extended")
        .isFalse();
    assertThat(await(v.read().release(key, "r1")).released()).isTrue();
    AcquireOutcome granted = await(v.write().acquire(key, "w", "dw", LONG));
    assertThat(granted.granted()).isTrue();
    assertThat(granted.fencingToken()).isGreaterThan(r1);
    assertThat(await(v.write().extend(key, "w", LONG)).extended()).isTrue();
    assertThat(await(v.read().extend(key, "w", LONG)).extended()).isFalse();
    assertThat(await(v.read().acquire(key, "r3", "", LONG)).holder().orElseThrow().owner())
        .isEqualTo("w");
    assertThat(await(v.write().release(key, "w2")).released()).isFalse();
    assertThat(await(v.write().release(key, "w")).released()).isTrue();
    assertThat(await(v.write().read(key))).isEmpty();
    long r3 = await(v.read().acquire(key, "r3", "", LONG)).fencingToken();
    assertThat(r3).isGreaterThan(granted.fencingToken());
    assertThat(await(v.read().acquire(key, "r4", "", LONG)).granted()).isTrue();
    AcquireOutcome r5 = await(v.read().acquire(key, "r5", "", LONG));
    assertThat(r5.granted()).as("two readers at most").isFalse();
    assertThat(r5.holder().orElseThrow().owner()).isIn("r3", "r4");
    Throwable replaced = v.read().replace(key, "r3", "x", "", LONG).handle((r, e) -> e).join();
    assertThat(((LockBackendException) replaced).kind()).isEqualTo(LockFailureKind.OTHER);
    assertThat(await(counted.read(key))).as("the lock of the same key is another record").isEmpty();
    assertThat(await(counted.permitView(2).orElseThrow().read(key)))
        .as("so is the semaphore of the same key")
        .isEmpty();
  }

  /** Owners and data of the backend's longest length (no two alike), in every view. */
  @Test
  void longestOwnersAndDataRoundTrip() {
    java.util.Random random = new java.util.Random(7);
    StringBuilder b = new StringBuilder();
    while (b.length() < JdbcLockBackend.MAX_VALUE_LENGTH) {
      b.append((char) ('a' + random.nextInt(26)));
    }
    String owner = b.toString();
    String other = owner.substring(1) + "\u0000";
    String key = key();
    ReadWriteLeases.Views v = counted.readWriteViews(1).orElseThrow();
    long r = await(v.read().acquire(key, owner, owner, LONG)).fencingToken();
    AcquireOutcome refused = await(v.read().acquire(key, other, "", LONG));
    assertThat(refused.holder().orElseThrow().owner()).isEqualTo(owner);
    assertThat(refused.holder().orElseThrow().data()).isEqualTo(owner);
    assertThat(refused.holder().orElseThrow().fencingToken()).isEqualTo(r);
    assertThat(await(v.read().release(key, owner)).released()).isTrue();
    LockBackend permits = counted.permitView(1).orElseThrow();
    assertThat(await(permits.acquire(key, other, other, LONG)).granted()).isTrue();
    assertThat(await(permits.read(key)).orElseThrow().owner()).isEqualTo(other);
    assertThat(await(permits.extend(key, other, LONG)).extended()).isTrue();
    assertThat(await(permits.release(key, other)).released()).isTrue();
  }

  @Test
  void aCrashedWaitersEntryExpiresOnTheServerClock() {
    ReadWriteLeases.Views v = counted.readWriteViews(4).orElseThrow();
    String key = key();
    assertThat(await(v.read().acquire(key, "r", "", LONG)).granted()).isTrue();
    assertThat(await(v.write().acquire(key, "w", "", Duration.ofMillis(50))).granted()).isFalse();
    TestTiming.await(
        "the waiting entry expired",
        () -> await(v.read().acquire(key, "r2", "", LONG)).granted(),
        Duration.ofSeconds(10));
    assertThat(await(v.write().release(key, "w")).released()).isFalse();
  }

  @Test
  void aSlotIsTheTokenModuloTheCountAndACountMismatchIsRefused() {
    String name = key();
    DistributedSemaphore sem = semaphores(counted).semaphore(name, 4);
    DistributedSemaphore peer = semaphores(other()).semaphore(name, 4);
    List<Permits> held = new ArrayList<>();
    long last = 0;
    for (int i = 0; i < 4; i++) {
      Permits p = (i % 2 == 0 ? sem : peer).tryAcquire().orElseThrow();
      Permit permit = p.permits().get(0);
      assertThat(permit.slot()).as("the lowest free slot").isEqualTo(i);
      assertThat(Math.floorMod(permit.fencingToken(), 4L)).isEqualTo(permit.slot());
      assertThat(permit.fencingToken()).isGreaterThan(last);
      last = permit.fencingToken();
      held.add(p);
    }
    assertThat(peer.tryAcquire()).isEmpty();
    held.get(2).close();
    DistributedSemaphore five = semaphores(other()).semaphore(name, 5);
    assertThatThrownBy(five::tryAcquire)
        .as("another count is refused while entries of this one are live")
        .isInstanceOf(PermitCountMismatchException.class);
    try (Permits again = peer.tryAcquire().orElseThrow()) {
      assertThat(again.permits().get(0).slot()).isEqualTo(2);
      assertThat(again.permits().get(0).fencingToken()).isGreaterThan(last);
    }
    held.forEach(Permits::close);
    LockBackend view = counted.permitView(3).orElseThrow();
    String key = key();
    long t1 = await(view.acquire(key, "a", "3", LONG)).fencingToken();
    assertThat(await(view.acquire(key, "a", "3", LONG)).fencingToken())
        .as("idempotent")
        .isEqualTo(t1);
    assertThat(await(view.extend(key, "a", LONG)).extended()).isTrue();
    assertThat(await(view.extend(key, "b", LONG)).extended()).isFalse();
    assertThat(await(view.release(key, "b")).released()).isFalse();
    assertThat(await(view.read(key)).orElseThrow().owner()).isEqualTo("a");
    assertThat(await(view.release(key, "a")).released()).isTrue();
    assertThat(await(view.read(key))).isEmpty();
    assertThat(await(view.acquire(key, "a", "3", LONG)).fencingToken())
        .as("never reset")
        .isGreaterThan(t1);
  }

  @Test
  void aViewReleaseWakesAWaitOfTheViewKey() {
    ReadWriteLeases.Views v = counted.readWriteViews(4).orElseThrow();
    LockBackend permits = counted.permitView(1).orElseThrow();
    String key = key();
    assertThat(await(v.write().acquire(key, "w", "", LONG)).granted()).isTrue();
    assertThat(await(permits.acquire(key, "p", "1", LONG)).granted()).isTrue();
    JdbcLockBackend peer = open(builder(pool()).build());
    pauseForListener(peer); // a (re)connecting listener wakes every wait: not this test's signal
    CompletableFuture<Boolean> wait = peer.awaitRelease(key, LONG);
    TestTiming.await("the wait is set up", () -> peer.unobservedReleaseWaits() == 0, WAIT);
    assertThat(await(v.write().release(key, "w")).released()).isTrue();
    assertThat(TestTiming.get(wait, WAIT)).as("a writer's release").isTrue();
    CompletableFuture<Boolean> again = peer.awaitRelease(key, LONG);
    TestTiming.await("the wait is set up", () -> peer.unobservedReleaseWaits() == 0, WAIT);
    assertThat(await(permits.release(key, "p")).released()).isTrue();
    assertThat(TestTiming.get(again, WAIT)).as("a permit's release").isTrue();
  }

  /** Lets a fresh backend's signal get ready (PostgreSQL: the listener's LISTEN). */
  protected void pauseForListener(JdbcLockBackend backend) {}

  /**
   * The gain, counted as JDBC executes: natively every acquire, refused or granted, and every
   * release is one statement; generically a semaphore tries its slot keys one by one and a
   * reader-writer lock uses a write key, reader slots and a token key.
   */
  @Test
  void statementsPerAcquisitionNativeAgainstGeneric() throws Exception {
    int permits = 8;
    for (boolean nativePath : List.of(true, false)) {
      LockBackend mine = nativePath ? counted : WithoutNativeViews.of(counted);
      LockBackend theirs = nativePath ? other() : WithoutNativeViews.of(other());
      String label = nativePath ? "native" : "generic";
      DistributedSemaphore sem = semaphores(mine).semaphore(key(), permits);
      DistributedSemaphore peer = semaphores(theirs).semaphore(sem.name(), permits);
      List<Permits> others = new ArrayList<>();
      for (int i = 0; i < permits - 1; i++) {
        others.add(peer.tryAcquire().orElseThrow());
      }
      counting.reset();
      Permits last = sem.tryAcquire(1, LockOptions.SKIP_IF_BUSY).orElseThrow();
      long lastCost = counting.executions();
      counting.reset();
      assertThat(sem.tryAcquire(1, LockOptions.SKIP_IF_BUSY)).isEmpty();
      long fullCost = counting.executions();
      counting.reset();
      last.close();
      long releaseCost = counting.executions();
      others.forEach(Permits::close);

      DistributedReadWriteLock rw = open(DistributedReadWriteLock.create(options(), mine));
      String name = key();
      counting.reset();
      rw.acquireRead(name, waiting()).close();
      long read = counting.executions();
      counting.reset();
      rw.acquireWrite(name, waiting()).close();
      long write = counting.executions();
      System.out.println(
          "["
              + counted.name()
              + " views statements] "
              + label
              + ": last permit of "
              + permits
              + " "
              + lastCost
              + ", full "
              + fullCost
              + ", permit release "
              + releaseCost
              + ", read acquire+release "
              + read
              + ", write acquire+release "
              + write);
      if (nativePath) {
        assertThat(lastCost).as("native: the last free permit").isEqualTo(1);
        assertThat(fullCost).as("native: a full semaphore").isEqualTo(1);
        assertThat(releaseCost).as("native: a permit release").isEqualTo(1);
        assertThat(read).as("native: read acquire + release").isEqualTo(2);
        assertThat(write).as("native: write acquire + release").isEqualTo(2);
      } else {
        assertThat(lastCost).as("generic: the last free permit").isBetween(1L, (long) permits);
        assertThat(fullCost).as("generic: a full semaphore").isEqualTo(permits);
        assertThat(read).as("generic: read acquire + release").isGreaterThan(2);
        assertThat(write).as("generic: write acquire + release").isGreaterThan(2);
      }
    }
  }

  private DistributedSemaphores semaphores(LockBackend backend) {
    return open(DistributedSemaphores.create(options(), backend));
  }
}
