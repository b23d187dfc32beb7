package io.hostloom.redis;

import static io.hostloom.redis.Futures.await;
import static org.assertj.core.api.Assertions.assertThat;

import io.hostloom.locking.LockFailureKind;
import io.hostloom.locking.LockOptions;
import io.hostloom.locking.LockingOptions;
import io.hostloom.locking.rwlock.DistributedReadWriteLock;
import io.hostloom.locking.rwlock.ReadWriteHandle;
import io.hostloom.locking.spi.LockBackend;
import io.hostloom.locking.spi.LockBackendException;
import io.hostloom.locking.spi.ReadWriteLeases;
import io.hostloom.testkit.TestTiming;
import io.lettuce.core.RedisClient;
import io.lettuce.core.event.command.CommandListener;
import io.lettuce.core.event.command.CommandStartedEvent;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The native Redis reader-writer lock ({@link RedisLockBackend#readWriteViews}) on a real server:
 * its keys, the views' answers (writer preference, the waiting entry, tokens), a writer that gives
 * up, and the round trips per acquisition counted by the client's command listener against the
 * generic construction on the same server. Pinned by command counts, never by timing.
 */
class RedisNativeReadWriteLockTest {
  private static final Duration LONG = Duration.ofSeconds(60);

  private final RedisServerProcess redis = RedisServerProcess.shared();
  private final List<String> sent = new CopyOnWriteArrayList<>();
  private final List<AutoCloseable> opened = new ArrayList<>();
  private RedisLockBackend counted;

  @BeforeEach
  void countedBackend() {
    RedisClient client = RedisClient.create();
    client.addListener(
        new CommandListener() {
          @Override
          public void commandStarted(CommandStartedEvent event) {
            sent.add(event.getCommand().getType().toString());
          }
        });
    counted = RedisLockBackend.builder().client(client).uri(redis.uri()).build();
    opened.add(counted);
    opened.add(() -> client.shutdown(Duration.ZERO, Duration.ofSeconds(2)));
    await(counted.warmUp());
  }

  @AfterEach
  void closeAll() throws Exception {
    Collections.reverse(opened);
    for (AutoCloseable c : opened) {
      c.close();
    }
  }

  private DistributedReadWriteLock lock(LockBackend backend) {
    DistributedReadWriteLock l =
        DistributedReadWriteLock.create(
            LockingOptions.builder().namespace("natrw").defaultLease(LONG).build(), backend);
    opened.add(l);
    return l;
  }

  private RedisLockBackend other() {
    RedisLockBackend b = RedisLockBackend.builder().uri(redis.uri()).build();
    opened.add(b);
    return b;
  }

  private static String name() {
    return "rw-" + UUID.randomUUID();
  }

  private static LockOptions skip() {
    return LockOptions.builder().lease(LONG).maxWait(Duration.ZERO).build();
  }

  private static LockOptions waiting() {
    return LockOptions.builder().lease(LONG).maxWait(Duration.ofSeconds(30)).build();
  }

  @Test
  void readsAndWritesAreEntriesOfOneKeyAndLeaveOnlyTheCounter() {
    String name = name();
    String base = "hl:{natrw:rwlock:" + name + "}";
    DistributedReadWriteLock rw = lock(counted);
    ReadWriteHandle r1 = rw.acquireRead(name, waiting());
    ReadWriteHandle r2 = rw.acquireRead(name, waiting());
    assertThat(r2.fencingToken()).isGreaterThan(r1.fencingToken());
    assertThat(redis.command("ZCARD", base + ":readers")).isEqualTo("2");
    assertThat(Long.parseLong(redis.command("PTTL", base + ":readers"))).isPositive();
    assertThat(redis.command("EXISTS", "hl:{natrw:rwlock:" + name + "/w}")).isEqualTo("0");
    r1.close();
    r2.close();
    assertThat(redis.command("EXISTS", base + ":readers", base + ":rw")).isEqualTo("0");
    try (ReadWriteHandle w = rw.acquireWrite(name, waiting())) {
      assertThat(w.fencingToken()).isGreaterThan(r2.fencingToken());
      assertThat(redis.command("HGET", base + ":rw", "ws")).isEqualTo("h");
    }
    assertThat(redis.command("EXISTS", base + ":readers", base + ":rw")).isEqualTo("0");
    assertThat(redis.command("EXISTS", base + ":fence")).isEqualTo("1");
  }

  @Test
  void theViewsAnswerWriterPreferenceAtomically() {
    ReadWriteLeases.Views v = counted.readWriteViews(2).orElseThrow();
    String key = "natrw:rwlock:" + name();
    long r1 = await(v.read().acquire(key, "r1", "d1", LONG)).fencingToken();
    assertThat(await(v.read().acquire(key, "r1", "", LONG)).fencingToken())
        .as("a re-acquire by the reader keeps its token")
        .isEqualTo(r1);
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
    Throwable replaced = v.read().replace(key, "r3", "x", "", LONG).handle((r, e) -> e).join();
    assertThat(((LockBackendException) replaced).kind()).isEqualTo(LockFailureKind.OTHER);
    try (RedisLockBackend compat =
        RedisLockBackend.builder()
            .uri(redis.uri())
            .layout(RedisKeyLayout.shedLock("j", "d", "x:"))
            .build()) {
      assertThat(compat.readWriteViews(2))
          .as("no native reader-writer lock on a compatibility layout")
          .isEmpty();
    }
  }

  @Test
  void aCrashedWaitersEntryExpiresOnTheServerClock() {
    ReadWriteLeases.Views v = counted.readWriteViews(4).orElseThrow();
    String key = "natrw:rwlock:" + name();
    assertThat(await(v.read().acquire(key, "r", "", LONG)).granted()).isTrue();
    assertThat(await(v.write().acquire(key, "w", "", Duration.ofMillis(50))).granted()).isFalse();
    TestTiming.await(
        "the waiting entry expired",
        () -> await(v.read().acquire(key, "r2", "", LONG)).granted(),
        Duration.ofSeconds(10));
    assertThat(await(v.write().release(key, "w")).released()).isFalse();
  }

  @Test
  void aWaitingWriterBlocksNewReadersAndAWriterThatGivesUpUnblocksThem() throws Exception {
    String name = name();
    DistributedReadWriteLock mine = lock(counted);
    DistributedReadWriteLock peer = lock(other());
    ReadWriteHandle reader = mine.acquireRead(name, waiting());
    CompletableFuture<Optional<ReadWriteHandle>> writer =
        peer.tryAcquireWriteAsync(name, waiting());
    String entries = "hl:{natrw:rwlock:" + name + "}:rw";
    TestTiming.await(
        "the writer waits", () -> "w".equals(redis.command("HGET", entries, "ws")), LONG);
    assertThat(mine.tryAcquireRead(name, skip())).as("a new reader behind the writer").isEmpty();
    writer.cancel(false); // the writer gives up
    TestTiming.await(
        "the given-up writer's entry is gone",
        () -> "0".equals(redis.command("HEXISTS", entries, "wo")),
        LONG);
    try (ReadWriteHandle r = mine.tryAcquireRead(name, skip()).orElseThrow()) {
      assertThat(r.isHeld()).isTrue();
    }
    // a refused tryAcquireWrite (maxWait 0) is answered after its waiting entry is removed
    assertThat(peer.tryAcquireWrite(name, skip())).isEmpty();
    assertThat(redis.command("HEXISTS", entries, "wo")).isEqualTo("0");
    try (ReadWriteHandle r = mine.tryAcquireRead(name, skip()).orElseThrow()) {
      assertThat(r.isHeld()).isTrue();
    }
    // so is one whose maxWait ran out while the reader stayed
    LockOptions brief = LockOptions.builder().lease(LONG).maxWait(Duration.ofMillis(300)).build();
    assertThat(peer.tryAcquireWrite(name, brief)).isEmpty();
    assertThat(redis.command("HEXISTS", entries, "wo")).isEqualTo("0");
    reader.close();
  }

  /**
   * Readers and writers wait on one key, so a reader-writer release wakes every wait of it in a
   * backend (a lock's release wakes only the oldest).
   */
  @Test
  void aReleaseWakesEveryWaitOfTheKey() throws Exception {
    ReadWriteLeases.Views v = counted.readWriteViews(4).orElseThrow();
    String key = "natrw:rwlock:" + name();
    assertThat(await(v.write().acquire(key, "w", "", LONG)).granted()).isTrue();
    await(v.read().acquire(key, "r", "", LONG)); // refused: sets the waiter flag
    CompletableFuture<Boolean> first = counted.awaitRelease(key, LONG);
    TestTiming.pass(Duration.ofMillis(50)); // the first wait of a fresh backend subscribes
    CompletableFuture<Boolean> second = counted.awaitRelease(key, LONG);
    await(v.read().acquire(key, "r", "", LONG)); // refused after both waits: no release missed
    assertThat(await(v.write().release(key, "w")).released()).isTrue();
    assertThat(TestTiming.get(first, Duration.ofSeconds(10))).isTrue();
    assertThat(TestTiming.get(second, Duration.ofSeconds(10))).as("the second wait too").isTrue();
  }

  /**
   * The gain, structurally: an uncontended read or write is one script to acquire and one to
   * release natively; generically a read is a slot, a read of the write key and a token draw (2)
   * plus the release, a write the write key, a read of every slot and a token draw (2) plus the
   * release.
   */
  @Test
  void roundTripsPerAcquisitionNativeAgainstGeneric() {
    for (boolean nativePath : List.of(true, false)) {
      LockBackend mine = nativePath ? counted : new WithoutPermitView(counted);
      DistributedReadWriteLock rw = lock(mine);
      String name = name();
      String label = nativePath ? "native" : "generic";
      sent.clear();
      rw.acquireRead(name, waiting()).close();
      int read = sent.size();
      sent.clear();
      rw.acquireWrite(name, waiting()).close();
      int write = sent.size();
      if (nativePath) {
        assertThat(read).as("native read acquire + release").isEqualTo(2);
        assertThat(write).as("native write acquire + release").isEqualTo(2);
      } else {
        assertThat(read).as("generic read acquire + release").isEqualTo(5);
        assertThat(write).as("generic write acquire + release").isEqualTo(rw.readerSlots() + 4);
      }
      System.out.println(
          "[redis rwlock round trips] " + label + ": read " + read + ", write " + write);
    }
  }
}
