package io.hostloom.redis;

import static io.hostloom.redis.Futures.await;
import static org.assertj.core.api.Assertions.assertThat;

import io.hostloom.locking.LockOptions;
import io.hostloom.locking.LockingOptions;
import io.hostloom.locking.semaphore.DistributedSemaphore;
import io.hostloom.locking.semaphore.DistributedSemaphores;
import io.hostloom.locking.semaphore.Permit;
import io.hostloom.locking.semaphore.Permits;
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
 * The native Redis semaphore ({@link RedisLockBackend#permitView}) on a real server: its keys, its
 * slots and tokens, the view's answers, and the round trips per acquisition counted by the client's
 * command listener (every command Lettuce writes), against the generic slot construction on the
 * same server. The gain is pinned by command counts, never by timing.
 */
class RedisNativeSemaphoreTest {
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

  private DistributedSemaphores semaphores(LockBackend backend) {
    DistributedSemaphores s =
        DistributedSemaphores.create(
            LockingOptions.builder().namespace("natsem").defaultLease(LONG).build(), backend);
    opened.add(s);
    return s;
  }

  private RedisLockBackend other() {
    RedisLockBackend b = RedisLockBackend.builder().uri(redis.uri()).build();
    opened.add(b);
    return b;
  }

  private static String name() {
    return "sem-" + UUID.randomUUID();
  }

  private String holders(String name) {
    return "hl:{natsem:semaphore:" + name + "}:holders";
  }

  private String entries(String name) {
    return "hl:{natsem:semaphore:" + name + "}:permits";
  }

  @Test
  void permitsAreEntriesOfOneSortedSetAndLeaveNothingBehind() {
    String name = name();
    DistributedSemaphore sem = semaphores(counted).semaphore(name, 3);
    Permits a = sem.tryAcquire().orElseThrow();
    Permits b = sem.tryAcquire().orElseThrow();
    assertThat(redis.command("ZCARD", holders(name))).isEqualTo("2");
    assertThat(redis.command("HGET", entries(name), "n")).isEqualTo("3");
    assertThat(redis.command("EXISTS", "hl:{natsem:semaphore:" + name + "#0}")).isEqualTo("0");
    assertThat(redis.command("EXISTS", "hl:{natsem:semaphore:" + name + "}")).isEqualTo("0");
    assertThat(Long.parseLong(redis.command("PTTL", holders(name)))).isPositive();
    a.close();
    b.close();
    assertThat(redis.command("EXISTS", holders(name), entries(name))).isEqualTo("0");
    assertThat(redis.command("EXISTS", "hl:{natsem:semaphore:" + name + "}:fence"))
        .isEqualTo("1"); // the counter outlives the holders: tokens keep increasing
  }

  @Test
  void aSlotIsTheTokenModuloTheCountAndTokensIncreaseOverAllSlots() {
    String name = name();
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
    try (Permits again = peer.tryAcquire().orElseThrow()) {
      assertThat(again.permits().get(0).slot()).isEqualTo(2);
      assertThat(again.permits().get(0).fencingToken()).isGreaterThan(last);
    }
    held.forEach(Permits::close);
  }

  @Test
  void leanSettingsStillGiveIncreasingTokens() {
    RedisLockBackend lean =
        RedisLockBackend.builder()
            .uri(redis.uri())
            .fencingTokens(false)
            .releaseNotifications(false)
            .build();
    opened.add(lean);
    DistributedSemaphore sem = semaphores(lean).semaphore(name(), 2);
    long first;
    try (Permits p = sem.tryAcquire().orElseThrow()) {
      first = p.permits().get(0).fencingToken();
    }
    try (Permits p = sem.tryAcquire().orElseThrow()) {
      assertThat(p.permits().get(0).fencingToken()).isGreaterThan(first);
    }
  }

  @Test
  void noViewOnACompatibilityLayout() {
    try (RedisLockBackend compat =
        RedisLockBackend.builder()
            .uri(redis.uri())
            .layout(RedisKeyLayout.shedLock("j", "d", "x:"))
            .build()) {
      assertThat(compat.permitView(2)).isEmpty();
    }
  }

  @Test
  void aShortLeaseExpiresOnTheServerClock() {
    LockBackend view = counted.permitView(1).orElseThrow();
    String key = "natsem:semaphore:" + name();
    assertThat(await(view.acquire(key, "a", "", Duration.ofMillis(50))).granted()).isTrue();
    io.hostloom.testkit.TestTiming.await(
        "the entry expired",
        () -> await(view.acquire(key, "b", "", LONG)).granted(),
        Duration.ofSeconds(10));
    assertThat(await(view.extend(key, "a", LONG)).extended()).isFalse();
    assertThat(await(view.release(key, "a")).released()).isFalse();
    assertThat(redis.command("HEXISTS", "hl:{" + key + "}:permits", "o:a")).isEqualTo("0");
  }

  /**
   * The gain, structurally: one script per permit attempt whatever the slots' state. An uncontended
   * acquire + release is 2 commands on both paths; a full 8-permit semaphore is refused with 1
   * command natively and 8 generically (one per slot); the last free permit costs 1 natively and 1
   * to 8 generically.
   */
  @Test
  void roundTripsPerAcquisitionNativeAgainstGeneric() {
    int permits = 8;
    LockOptions once = LockOptions.SKIP_IF_BUSY;
    for (boolean nativePath : List.of(true, false)) {
      LockBackend mine = nativePath ? counted : new WithoutPermitView(counted);
      LockBackend theirs = nativePath ? other() : new WithoutPermitView(other());
      String name = name();
      DistributedSemaphore sem = semaphores(mine).semaphore(name, permits);
      DistributedSemaphore peer = semaphores(theirs).semaphore(name, permits);
      String label = nativePath ? "native" : "generic";

      sent.clear();
      sem.tryAcquire().orElseThrow().close();
      assertThat(sent)
          .as(label + " uncontended acquire + release")
          .containsExactly("EVALSHA", "EVALSHA");

      List<Permits> others = new ArrayList<>();
      for (int i = 0; i < permits - 1; i++) {
        others.add(peer.tryAcquire().orElseThrow());
      }
      sent.clear();
      Permits last = sem.tryAcquire(1, once).orElseThrow();
      int lastCost = sent.size();
      sent.clear();
      assertThat(sem.tryAcquire(1, once)).isEmpty();
      int fullCost = sent.size();
      if (nativePath) {
        assertThat(lastCost).as("native: the last free permit").isEqualTo(1);
        assertThat(fullCost).as("native: a full semaphore").isEqualTo(1);
      } else {
        assertThat(lastCost).as("generic: the last free permit").isBetween(1, permits);
        assertThat(fullCost).as("generic: a full semaphore").isEqualTo(permits);
      }
      sent.clear();
      last.close();
      assertThat(sent).as(label + " release").containsExactly("EVALSHA");
      others.forEach(Permits::close);
      sent.clear();
      try (Permits three = sem.tryAcquire(3, once).orElseThrow()) {
        assertThat(three.permits()).hasSize(3);
      }
      if (nativePath) {
        assertThat(sent).as("native: 3 permits = 3 acquires + 3 releases").hasSize(6);
      }
      System.out.println(
          "[redis semaphore round trips] "
              + label
              + ": last free permit of 8 "
              + lastCost
              + ", full semaphore "
              + fullCost);
    }
  }
}
