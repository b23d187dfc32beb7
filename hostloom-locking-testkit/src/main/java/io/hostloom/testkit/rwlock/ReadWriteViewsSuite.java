package io.hostloom.testkit.rwlock;

import static org.assertj.core.api.Assertions.assertThat;

import io.hostloom.locking.LockFailureKind;
import io.hostloom.locking.LockOptions;
import io.hostloom.locking.LockingOptions;
import io.hostloom.locking.rwlock.DistributedReadWriteLock;
import io.hostloom.locking.rwlock.ReadWriteHandle;
import io.hostloom.locking.spi.LockBackend;
import io.hostloom.locking.spi.LockBackendException;
import io.hostloom.locking.spi.ReadWriteLeases;
import io.hostloom.locking.spi.ReleaseSignal;
import io.hostloom.testkit.TestTiming;
import io.hostloom.testkit.ViewSuiteHooks;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * The {@link ReadWriteLeases} contract, tested on the views directly against a real backend: writer
 * preference and the waiting entry, tokens over both views, owner checks, expiry on the backend's
 * clock, the release signal, and readers and writers of several instances racing. Backend-specific
 * checks (key layout, command counts) stay in the backend's own tests.
 *
 * <p>Subclass it in the backend module:
 *
 * <pre>{@code
 * class MyReadWriteViewsTest extends ReadWriteViewsSuite {
 *   @Override protected LockBackend newBackend() { ... } // implements ReadWriteLeases
 *   @Override protected Duration shortLease() { return Duration.ofSeconds(1); } // if whole seconds
 * }
 * }</pre>
 *
 * The suite opens an instance per test (two in the tests of two processes) and closes them after
 * it. Keys are fresh per test ({@link #namespace()}{@code :rwlock:<uuid>}).
 */
public abstract class ReadWriteViewsSuite extends ViewSuiteHooks {
  private static final Duration LONG = Duration.ofSeconds(60);

  /** The views of {@link #backend()}. */
  protected ReadWriteLeases.Views views(int maxReaders) {
    LockBackend b = backend();
    assertThat(b).as("the backend implements ReadWriteLeases").isInstanceOf(ReadWriteLeases.class);
    return ((ReadWriteLeases) b).readWriteViews(maxReaders).orElseThrow();
  }

  private String key(String name) {
    return namespace() + ":rwlock:" + name;
  }

  private static String name() {
    return "rw-" + UUID.randomUUID();
  }

  private static <T> T await(CompletableFuture<T> f) {
    return TestTiming.get(f, Duration.ofSeconds(30));
  }

  /**
   * Readers and writers of several instances race for a free key, round after round: either one
   * writer and no reader is granted, or readers and no writer.
   */
  @Test
  void racingReadersAndWritersOfSeveralInstancesKeepExclusion() throws Exception {
    List<ReadWriteLeases.Views> views =
        racers(4).stream()
            .map(b -> ((ReadWriteLeases) b).readWriteViews(64).orElseThrow())
            .toList();
    for (int round = 0; round < 20; round++) {
      String key = key(name());
      List<Boolean> granted =
          race(
              i -> {
                ReadWriteLeases.Views v = views.get(i % views.size());
                return i % 2 == 0 ? v.write() : v.read();
              },
              key,
              "");
      int writers = 0;
      int readers = 0;
      for (int i = 0; i < granted.size(); i++) {
        if (granted.get(i)) {
          if (i % 2 == 0) {
            writers++;
          } else {
            readers++;
          }
        }
      }
      assertThat((writers == 1 && readers == 0) || (writers == 0 && readers > 0))
          .as("round %d: %d writers and %d readers granted", round, writers, readers)
          .isTrue();
    }
  }

  @Test
  void theViewsAnswerWriterPreferenceAtomically() {
    ReadWriteLeases.Views v = views(2);
    String key = key(name());
    long r1 = await(v.read().acquire(key, "r1", "d1", LONG)).fencingToken();
    var w = await(v.write().acquire(key, "w", "dw", LONG));
    assertThat(w.granted()).isFalse();
    assertThat(w.holder().orElseThrow().owner()).as("refused with the reader").isEqualTo("r1");
    var r2 = await(v.read().acquire(key, "r2", "", LONG));
    assertThat(r2.granted()).as("a new reader behind a waiting writer").isFalse();
    assertThat(r2.holder().orElseThrow().owner()).isEqualTo("w");
    assertThat(r2.holder().orElseThrow().fencingToken()).as("a waiting writer").isZero();
    assertThat(await(v.write().acquire(key, "w2", "", LONG)).holder().orElseThrow().owner())
        .as("another writer meets the waiting one")
        .isEqualTo("w");
    assertThat(await(v.write().read(key)).orElseThrow().owner()).isEqualTo("w");
    assertThat(await(v.write().extend(key, "w", LONG)).extended())
        .as("a waiting entry is not extended")
        .isFalse();
    assertThat(await(v.read().release(key, "r1")).released()).isTrue();
    var granted = await(v.write().acquire(key, "w", "dw", LONG));
    assertThat(granted.granted()).isTrue();
    assertThat(granted.fencingToken()).isGreaterThan(r1);
    assertThat(await(v.write().extend(key, "w", LONG)).extended()).isTrue();
    assertThat(await(v.read().acquire(key, "r3", "", LONG)).holder().orElseThrow().owner())
        .isEqualTo("w");
    assertThat(await(v.write().release(key, "w2")).released()).isFalse();
    assertThat(await(v.write().release(key, "w")).released()).isTrue();
    long r3 = await(v.read().acquire(key, "r3", "", LONG)).fencingToken();
    assertThat(r3).isGreaterThan(granted.fencingToken());
    assertThat(await(v.read().acquire(key, "r4", "", LONG)).granted()).isTrue();
    assertThat(await(v.read().acquire(key, "r5", "", LONG)).granted())
        .as("two readers at most")
        .isFalse();
  }

  @Test
  void aRetriedReadAcquireIsIdempotent() {
    ReadWriteLeases.Views v = views(2);
    String key = key(name());
    var first = await(v.read().acquire(key, "r", "d", LONG));
    assertThat(first.granted()).isTrue();
    var again = await(v.read().acquire(key, "r", "other", LONG));
    assertThat(again.granted()).isTrue();
    assertThat(again.fencingToken()).as("the same token").isEqualTo(first.fencingToken());
    LeaseRecordAssert.data(await(v.read().read(key)), "d");
    assertThat(await(v.read().acquire(key, "r2", "", LONG)).granted())
        .as("the retry took no second place")
        .isTrue();
  }

  @Test
  void tokensStrictlyIncreaseOverBothViews() {
    ReadWriteLeases.Views v = views(4);
    String key = key(name());
    long r1 = await(v.read().acquire(key, "r1", "", LONG)).fencingToken();
    long r2 = await(v.read().acquire(key, "r2", "", LONG)).fencingToken();
    assertThat(r2).isGreaterThan(r1);
    assertThat(await(v.read().release(key, "r1")).released()).isTrue();
    assertThat(await(v.read().release(key, "r2")).released()).isTrue();
    var w1 = await(v.write().acquire(key, "w", "", LONG));
    assertThat(w1.granted()).isTrue();
    assertThat(w1.fencingToken()).as("a write after reads").isGreaterThan(r2);
    assertThat(await(v.write().release(key, "w")).released()).isTrue();
    var r3 = await(v.read().acquire(key, "r3", "", LONG));
    assertThat(r3.granted()).isTrue();
    assertThat(r3.fencingToken()).as("a read after a write").isGreaterThan(w1.fencingToken());
    assertThat(await(v.write().acquire(key, "w2", "", LONG)).granted()).isFalse();
    assertThat(await(v.read().release(key, "r3")).released()).isTrue();
    var w2 = await(v.write().acquire(key, "w2", "", LONG));
    assertThat(w2.granted()).isTrue();
    assertThat(w2.fencingToken())
        .as("a write granted after waiting")
        .isGreaterThan(r3.fencingToken());
  }

  @Test
  void extendAndReleaseOfAStrangerAreRefusedAsAbsent() {
    ReadWriteLeases.Views v = views(4);
    String readKey = key(name());
    String writeKey = key(name());
    assertThat(await(v.read().acquire(readKey, "r", "", LONG)).granted()).isTrue();
    assertThat(await(v.write().acquire(writeKey, "w", "", LONG)).granted()).isTrue();
    for (var e :
        new Object[][] {
          {v.read(), readKey, "stranger"}, {v.write(), readKey, "r"},
          {v.write(), writeKey, "stranger"}, {v.read(), writeKey, "w"}
        }) {
      LockBackend view = (LockBackend) e[0];
      String k = (String) e[1];
      String owner = (String) e[2];
      var ext = await(view.extend(k, owner, LONG));
      assertThat(ext.extended()).as("extend by " + owner).isFalse();
      assertThat(ext.holder()).as("never another owner's record").isEmpty();
      var rel = await(view.release(k, owner));
      assertThat(rel.released()).as("release by " + owner).isFalse();
      assertThat(rel.holder()).as("never another owner's record").isEmpty();
    }
    assertThat(await(v.read().release(readKey, "r")).released()).isTrue();
    assertThat(await(v.write().release(writeKey, "w")).released()).isTrue();
  }

  @Test
  void replaceFailsWithKindOther() {
    ReadWriteLeases.Views v = views(2);
    String key = key(name());
    assertThat(await(v.read().acquire(key, "r", "", LONG)).granted()).isTrue();
    for (LockBackend view : new LockBackend[] {v.read(), v.write()}) {
      Throwable failed;
      try {
        failed = view.replace(key, "r", "x", "", LONG).handle((r, e) -> e).join();
      } catch (LockBackendException e) {
        failed = e;
      }
      assertThat(failed).isInstanceOf(LockBackendException.class);
      assertThat(((LockBackendException) failed).kind()).isEqualTo(LockFailureKind.OTHER);
    }
  }

  @Test
  void anExpiredReaderNeverCountsNorBlocksAWriter() {
    ReadWriteLeases.Views v = views(1);
    String counted = key(name());
    assertThat(await(v.read().acquire(counted, "r", "", shortLease())).granted()).isTrue();
    TestTiming.await(
        "the expired reader no longer takes the only place",
        () -> await(v.read().acquire(counted, "r2", "", LONG)).granted(),
        expiryWait());
    String blocking = key(name());
    assertThat(await(v.read().acquire(blocking, "r", "", shortLease())).granted()).isTrue();
    TestTiming.await(
        "the expired reader no longer blocks a writer",
        () -> await(v.write().acquire(blocking, "w", "", LONG)).granted(),
        expiryWait());
    assertThat(await(v.read().release(blocking, "r")).released()).isFalse();
  }

  @Test
  void aCrashedWaitersEntryExpiresOnTheServerClock() {
    ReadWriteLeases.Views v = views(4);
    String key = key(name());
    assertThat(await(v.read().acquire(key, "r", "", LONG)).granted()).isTrue();
    assertThat(await(v.write().acquire(key, "w", "", shortLease())).granted()).isFalse();
    TestTiming.await(
        "the waiting entry expired",
        () -> await(v.read().acquire(key, "r2", "", LONG)).granted(),
        expiryWait());
    assertThat(await(v.write().release(key, "w")).released()).isFalse();
  }

  @Test
  void aWaitingWriterBlocksNewReadersAndAWriterThatGivesUpUnblocksThem() throws Exception {
    String name = name();
    LockOptions skip = LockOptions.builder().lease(LONG).maxWait(Duration.ZERO).build();
    LockOptions waiting = LockOptions.builder().lease(LONG).maxWait(Duration.ofSeconds(30)).build();
    LockingOptions options =
        LockingOptions.builder().namespace(namespace()).defaultLease(LONG).build();
    LockBackend writeView = views(1).write();
    String key = key(name);
    try (DistributedReadWriteLock mine = DistributedReadWriteLock.create(options, backend());
        DistributedReadWriteLock peer = DistributedReadWriteLock.create(options, otherBackend())) {
      ReadWriteHandle reader = mine.acquireRead(name, waiting);
      CompletableFuture<Optional<ReadWriteHandle>> writer =
          peer.tryAcquireWriteAsync(name, waiting);
      TestTiming.await("the writer waits", () -> await(writeView.read(key)).isPresent(), LONG);
      assertThat(mine.tryAcquireRead(name, skip)).as("a new reader behind the writer").isEmpty();
      writer.cancel(false); // the writer gives up
      TestTiming.await(
          "the given-up writer's entry is gone", () -> await(writeView.read(key)).isEmpty(), LONG);
      try (ReadWriteHandle r = mine.tryAcquireRead(name, skip).orElseThrow()) {
        assertThat(r.isHeld()).isTrue();
      }
      // a refused tryAcquireWrite (maxWait 0) is answered after its waiting entry is removed
      assertThat(peer.tryAcquireWrite(name, skip)).isEmpty();
      assertThat(await(writeView.read(key))).isEmpty();
      LockOptions brief = LockOptions.builder().lease(LONG).maxWait(Duration.ofMillis(300)).build();
      assertThat(peer.tryAcquireWrite(name, brief)).isEmpty();
      assertThat(await(writeView.read(key))).as("nor one whose maxWait ran out").isEmpty();
      reader.close();
    }
  }

  /**
   * Readers and writers wait on one key, so a reader-writer release wakes every wait of it in a
   * backend (a lock's release wakes only the oldest).
   */
  @Test
  void aReleaseWakesEveryWaitOfTheKey() {
    Assumptions.assumeTrue(
        releaseSignal(), "the backend is no ReleaseSignal: no view release is announced");
    ReadWriteLeases.Views v = views(4);
    ReleaseSignal signal = (ReleaseSignal) backend();
    awaitSignalReady(backend());
    String key = key(name());
    assertThat(await(v.write().acquire(key, "w", "", LONG)).granted()).isTrue();
    await(v.read().acquire(key, "r", "", LONG)); // refused: a backend may flag the waiter here
    CompletableFuture<Boolean> first = signal.awaitRelease(key, LONG);
    CompletableFuture<Boolean> second = signal.awaitRelease(key, LONG);
    awaitWaitsWatching(backend());
    await(v.read().acquire(key, "r", "", LONG)); // refused after both waits: no release missed
    assertThat(await(v.write().release(key, "w")).released()).isTrue();
    assertThat(TestTiming.get(first, Duration.ofSeconds(10))).isTrue();
    assertThat(TestTiming.get(second, Duration.ofSeconds(10))).as("the second wait too").isTrue();
  }

  private static final class LeaseRecordAssert {
    static void data(Optional<io.hostloom.locking.spi.LeaseRecord> r, String data) {
      assertThat(r.orElseThrow().data()).as("the data the owner stored first").isEqualTo(data);
    }
  }
}
