package io.hostloom.redis;

import static io.hostloom.redis.Futures.await;
import static org.assertj.core.api.Assertions.assertThat;

import io.hostloom.locking.DistributedLock;
import io.hostloom.locking.LockHandle;
import io.hostloom.locking.LockingOptions;
import io.hostloom.locking.spi.LockBackend;
import io.hostloom.testkit.TestTiming;
import io.hostloom.testkit.capability.RoundTripBudget;
import io.hostloom.testkit.capability.RoundTripBudget.Case;
import io.hostloom.testkit.capability.RoundTripBudgetSuite;
import io.hostloom.testkit.capability.RoundTripCounter;
import io.lettuce.core.RedisClient;
import io.lettuce.core.event.command.CommandListener;
import io.lettuce.core.event.command.CommandStartedEvent;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/**
 * Round trips per operation on a real server, counted on both sides: the client's command listener
 * (every command Lettuce writes on the backend's connections, pub/sub included) and the server's
 * {@code INFO commandstats} (the commands the backend itself sends; those its scripts call are left
 * out). One command is one round trip: every operation is one script, the probe one {@code PING},
 * and release waits send nothing once the pattern subscription is up (the testkit's {@link
 * RoundTripBudgetSuite}). Plus Redis's own: the {@code NOSCRIPT} fallback, and an uncontended
 * kernel acquire and release is exactly two scripts and what they call.
 */
class RoundTripCountTest extends RoundTripBudgetSuite {
  private static final Duration LONG = Duration.ofSeconds(60);
  private static final Duration WAIT = Duration.ofSeconds(5);

  /** Commands the backend sends itself (what its scripts call is counted apart by Redis). */
  private static final Set<String> SENT_BY_THE_BACKEND =
      Set.of("evalsha", "eval", "ping", "psubscribe", "punsubscribe", "hello", "client");

  private final RedisServerProcess redis = RedisServerProcess.shared();
  private final List<String> sent = new CopyOnWriteArrayList<>();
  private RedisLockBackend backend;

  @Override
  protected RoundTripBudget budget() {
    return RoundTripBudget.everyCase(1).with(Case.AWAIT_RELEASE, 0);
  }

  @Override
  protected CountedBackend newCountedBackend() {
    RedisClient client = RedisClient.create();
    client.addListener(
        new CommandListener() {
          @Override
          public void commandStarted(CommandStartedEvent event) {
            sent.add(event.getCommand().getType().toString());
          }
        });
    backend = RedisLockBackend.builder().client(client).uri(redis.uri()).build();
    RoundTripCounter clientSide =
        new RoundTripCounter() {
          @Override
          public String name() {
            return "the client's command listener";
          }

          @Override
          public void reset() {
            sent.clear();
          }

          @Override
          public List<String> roundTrips() {
            return new ArrayList<>(sent);
          }
        };
    RoundTripCounter serverSide =
        new RoundTripCounter() {
          private Map<String, Long> before = Map.of();

          @Override
          public String name() {
            return "the server's INFO commandstats";
          }

          @Override
          public void reset() {
            before = commandStats();
          }

          @Override
          public List<String> roundTrips() {
            List<String> trips = new ArrayList<>();
            delta(before, commandStats())
                .forEach(
                    (command, calls) -> {
                      if (SENT_BY_THE_BACKEND.contains(command)) {
                        trips.addAll(Collections.nCopies(calls.intValue(), command));
                      }
                    });
            return trips;
          }
        };
    return new CountedBackend(
        backend,
        List.of(clientSide, serverSide),
        () -> {
          backend.close();
          client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
        });
  }

  @Override
  protected LockBackend newBackend() {
    return RedisLockBackend.builder().uri(redis.uri()).build();
  }

  @Override
  protected void warmUp(LockBackend b) {
    super.warmUp(b); // loads every script and starts the release subscription
    ReleaseSignalTest.awaitSubscribed(backend);
  }

  @Override
  protected void checkRoundTrips(Case c, List<String> roundTrips) {
    List<String> expected =
        switch (c) {
          case HEALTH_PROBE -> List.of("PING");
          case AWAIT_RELEASE -> List.of();
          default -> List.of("EVALSHA");
        };
    assertThat(roundTrips).as(c.label()).isEqualTo(expected);
  }

  @Test
  void aFlushedScriptCacheCostsOneExtraRoundTripOnce() {
    String key = "rt:lock:" + UUID.randomUUID();
    await(backend.read(key));
    redis.command("SCRIPT", "FLUSH");
    sent.clear();
    await(backend.acquire(key, "a", "", LONG));
    assertThat(sent).containsExactly("EVALSHA", "EVAL");
    sent.clear();
    await(backend.release(key, "a"));
    await(backend.acquire(key, "a", "", LONG));
    assertThat(sent).containsExactly("EVALSHA", "EVAL", "EVALSHA");
    warmUp(backend); // loads the other scripts again for the rest of the suite
  }

  @Test
  void theReleaseSubscriptionIsOnePsubscribe() {
    try (RedisLockBackend fresh = RedisLockBackend.builder().uri(redis.uri()).build()) {
      long psubscribes = commandStats().getOrDefault("psubscribe", 0L);
      ReleaseSignalTest.awaitSubscribed(fresh);
      assertThat(commandStats().getOrDefault("psubscribe", 0L) - psubscribes).isEqualTo(1);
    }
  }

  @Test
  void anUncontendedKernelAcquireAndReleaseIsTwoScripts() {
    try (DistributedLock lock = DistributedLock.create(LockingOptions.of("rt"), backend)) {
      // warm-up: loads both scripts and starts the release subscription (its first wait is false)
      lock.acquire("warm-up").close();
      TestTiming.await("subscribed", backend::releaseSignalUp, WAIT);
      lock.acquire("warm-up").close();

      // commandstats also counts the commands the scripts call: a granted acquire of a key whose
      // counter exists runs GET (free), INCR + PEXPIRE (the token), SET PX (the lease); a release
      // GET (owner, and the holder's record for a refusal), PTTL, DEL, EXISTS (the waiter flag:
      // nobody waits, so no PUBLISH)
      Map<String, Long> expected = new TreeMap<>(Map.of("evalsha", 2L, "get", 2L));
      for (String inner : List.of("incr", "pexpire", "set", "pttl", "del", "exists")) {
        expected.put(inner, 1L);
      }
      List<String> table = new ArrayList<>();
      for (int i = 0; i < 3; i++) {
        sent.clear();
        Map<String, Long> before = commandStats();
        try (LockHandle h = lock.acquire("warm-up")) {
          assertThat(h.isHeld()).isTrue();
        }
        assertThat(sent).as("commands sent").containsExactly("EVALSHA", "EVALSHA");
        assertThat(delta(before, commandStats()))
            .as("commands run on the server: two scripts and what they call, nothing else")
            .isEqualTo(expected);
        table.add(Integer.toString(sent.size()));
      }
      assertThat(backend.releaseWaiters()).isZero();
      System.out.println(
          "[redis round trips] kernel acquire + release (uncontended, wake-on-release on): "
              + String.join(", ", table));
    }
  }

  @Test
  void anUncontendedLeanKernelAcquireAndReleaseIsOneSetAndOneSmallScript() {
    RedisClient client = RedisClient.create();
    List<String> leanSent = new CopyOnWriteArrayList<>();
    client.addListener(
        new CommandListener() {
          @Override
          public void commandStarted(CommandStartedEvent event) {
            leanSent.add(event.getCommand().getType().toString());
          }
        });
    try (RedisLockBackend lean =
            RedisLockBackend.builder()
                .client(client)
                .uri(redis.uri())
                .fencingTokens(false)
                .releaseNotifications(false)
                .build();
        DistributedLock lock =
            DistributedLock.create(
                LockingOptions.builder().namespace("rt-lean").wakeOnRelease(false).build(), lean)) {
      await(lean.warmUp());
      lock.acquire("warm-up").close();

      // the grant is the plain SET NX PX (no script); the release GET (owner), PTTL (expiry in
      // this millisecond, the refusal's remaining lease), DEL: no token, no waiter flag
      Map<String, Long> expected =
          new TreeMap<>(Map.of("set", 1L, "evalsha", 1L, "get", 1L, "pttl", 1L, "del", 1L));
      for (int i = 0; i < 3; i++) {
        leanSent.clear();
        Map<String, Long> before = commandStats();
        try (LockHandle h = lock.acquire("warm-up")) {
          assertThat(h.isHeld()).isTrue();
        }
        assertThat(leanSent).as("commands sent").containsExactly("SET", "EVALSHA");
        assertThat(delta(before, commandStats()))
            .as("commands run on the server: one SET, one script and what it calls")
            .isEqualTo(expected);
      }

      // a refusal is the SET and then the acquire script (the holder's record in one atomic read)
      String key = "rt:lean:" + UUID.randomUUID();
      assertThat(await(lean.acquire(key, "a", "", LONG)).granted()).isTrue();
      leanSent.clear();
      assertThat(await(lean.acquire(key, "b", "", LONG)).holder().orElseThrow().owner())
          .isEqualTo("a");
      assertThat(leanSent).as("a refusal").containsExactly("SET", "EVALSHA");
    } finally {
      client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
    }
  }

  /** What ran between two {@link #commandStats()} snapshots, {@code INFO} calls left out. */
  private static Map<String, Long> delta(Map<String, Long> before, Map<String, Long> after) {
    Map<String, Long> d = new TreeMap<>();
    after.forEach(
        (command, calls) -> {
          long n = calls - before.getOrDefault(command, 0L);
          if (n != 0 && !command.equals("info")) {
            d.put(command, n);
          }
        });
    return d;
  }

  /** Calls per command so far ({@code INFO commandstats}). */
  private Map<String, Long> commandStats() {
    Map<String, Long> calls = new LinkedHashMap<>();
    for (String line : redis.command("INFO", "commandstats").split("\r?\n", -1)) {
      if (line.startsWith("cmdstat_")) {
        String name = line.substring("cmdstat_".length(), line.indexOf(':'));
        String rest = line.substring(line.indexOf("calls=") + 6);
        calls.merge(name, Long.parseLong(rest.substring(0, rest.indexOf(','))), Long::sum);
      }
    }
    return calls;
  }
}
