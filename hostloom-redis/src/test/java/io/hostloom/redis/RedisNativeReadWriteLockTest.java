package io.hostloom.redis;

import static io.hostloom.redis.Futures.await;
import static org.assertj.core.api.Assertions.assertThat;

import io.hostloom.locking.LockOptions;
import io.hostloom.locking.LockingOptions;
import io.hostloom.locking.rwlock.DistributedReadWriteLock;
import io.hostloom.locking.rwlock.ReadWriteHandle;
import io.hostloom.locking.spi.LockBackend;
import io.lettuce.core.RedisClient;
import io.lettuce.core.event.command.CommandListener;
import io.lettuce.core.event.command.CommandStartedEvent;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.UUID;
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

  private static String name() {
    return "rw-" + UUID.randomUUID();
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
  void noViewsOnACompatibilityLayout() {
    try (RedisLockBackend compat =
        RedisLockBackend.builder()
            .uri(redis.uri())
            .layout(RedisKeyLayout.shedLock("j", "d", "x:"))
            .build()) {
      assertThat(compat.readWriteViews(2)).isEmpty();
    }
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
