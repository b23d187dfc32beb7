package io.hostloom.redis;

import static io.hostloom.redis.Futures.await;
import static org.assertj.core.api.Assertions.assertThat;

import io.hostloom.locking.DistributedLock;
import io.hostloom.locking.LockHandle;
import io.hostloom.locking.LockingOptions;
import io.hostloom.testkit.TestTiming;
import io.lettuce.core.RedisClient;
import io.lettuce.core.event.command.CommandListener;
import io.lettuce.core.event.command.CommandStartedEvent;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Counts the commands each operation sends, on both sides: the client's command listener (every
 * command Lettuce writes on the backend's connections, pub/sub included) and the server's {@code
 * INFO commandstats}. One command is one round trip. Release waits send nothing once the pattern
 * subscription is up, so an uncontended kernel acquire and release is exactly two scripts.
 */
class RoundTripCountTest {
  private static final Duration LONG = Duration.ofSeconds(60);
  private static final Duration WAIT = Duration.ofSeconds(5);

  private final RedisServerProcess redis = RedisServerProcess.shared();
  private final List<String> sent = new CopyOnWriteArrayList<>();
  private RedisClient client;
  private RedisLockBackend backend;

  @BeforeEach
  void setUp() {
    client = RedisClient.create();
    client.addListener(
        new CommandListener() {
          @Override
          public void commandStarted(CommandStartedEvent event) {
            sent.add(event.getCommand().getType().toString());
          }
        });
    backend = RedisLockBackend.builder().client(client).uri(redis.uri()).build();
  }

  @AfterEach
  void tearDown() {
    backend.close();
    client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
  }

  @Test
  void everyOperationIsExactlyOneRoundTrip() {
    String key = "rt:lock:" + UUID.randomUUID();
    String other = "rt:lock:" + UUID.randomUUID();
    // first use of each script may cost a NOSCRIPT round trip; warm up all five
    await(backend.acquire(other, "w", "", LONG));
    await(backend.extend(other, "w", LONG));
    await(backend.replace(other, "w", "w2", "", LONG));
    await(backend.read(other));
    await(backend.release(other, "w2"));

    Map<String, Runnable> ops = new LinkedHashMap<>();
    ops.put("acquire (granted)", () -> await(backend.acquire(key, "a", "data", LONG)));
    ops.put("acquire (same owner)", () -> await(backend.acquire(key, "a", "data", LONG)));
    ops.put("acquire (held)", () -> await(backend.acquire(key, "b", "data", LONG)));
    ops.put("extend", () -> await(backend.extend(key, "a", LONG)));
    ops.put("extend (not owner)", () -> await(backend.extend(key, "b", LONG)));
    ops.put("read", () -> await(backend.read(key)));
    ops.put("replace", () -> await(backend.replace(key, "a", "c", "d", LONG)));
    ops.put("replace (mismatch)", () -> await(backend.replace(key, "a", "e", "d", LONG)));
    ops.put("release (not owner)", () -> await(backend.release(key, "a")));
    ops.put("release", () -> await(backend.release(key, "c")));
    ops.put("read (absent)", () -> await(backend.read(key)));

    List<String> table = new ArrayList<>();
    for (Map.Entry<String, Runnable> op : ops.entrySet()) {
      long before = scriptCalls();
      sent.clear();
      op.getValue().run();
      long serverCalls = scriptCalls() - before;
      assertThat(sent).as(op.getKey() + ": commands sent").containsExactly("EVALSHA");
      assertThat(serverCalls).as(op.getKey() + ": EVALSHA/EVAL calls on the server").isEqualTo(1);
      table.add(op.getKey() + "=" + sent.size());
    }
    System.out.println("[redis round trips] " + String.join(", ", table));
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
  }

  @Test
  void releaseWaitsSendNoCommandOnceSubscribed() {
    String key = "rt:lock:" + UUID.randomUUID();
    long psubscribes = serverCalls("psubscribe");
    ReleaseSignalTest.awaitSubscribed(backend);
    assertThat(sent).containsExactly("PSUBSCRIBE"); // once, on the dedicated pub/sub connection
    assertThat(serverCalls("psubscribe") - psubscribes).isEqualTo(1);

    sent.clear();
    long before = allServerCalls();
    List<CompletableFuture<Boolean>> waits = new ArrayList<>();
    for (int i = 0; i < 200; i++) {
      waits.add(backend.awaitRelease(i % 2 == 0 ? key : key + i, LONG));
    }
    waits.forEach(w -> w.cancel(false));
    assertThat(TestTiming.get(backend.awaitRelease(key, Duration.ofMillis(20)), WAIT)).isFalse();
    assertThat(sent).isEmpty();
    assertThat(allServerCalls() - before).isZero();
    assertThat(backend.releaseWaiters()).isZero();
  }

  @Test
  void anUncontendedKernelAcquireAndReleaseIsTwoScripts() {
    try (DistributedLock lock = DistributedLock.create(LockingOptions.of("rt"), backend)) {
      // warm-up: loads both scripts and starts the release subscription (its first wait is false)
      lock.acquire("warm-up").close();
      TestTiming.await("subscribed", backend::releaseSignalUp, WAIT);
      lock.acquire("warm-up").close();

      // commandstats also counts the commands the scripts call: a granted acquire of a new key
      // runs HMGET, TIME, GET, SET, HSET, PEXPIRE; a release EXISTS (its call's done key, for a
      // re-sent call), HMGET (owner, and the holder's record for a refusal), PTTL, DEL, SET (the
      // done key), PUBLISH
      Map<String, Long> expected = new TreeMap<>(Map.of("evalsha", 2L, "hmget", 2L, "set", 2L));
      for (String inner : List.of("time", "get", "hset", "pexpire", "exists", "pttl", "del")) {
        expected.put(inner, 1L);
      }
      expected.put("publish", 1L);
      List<String> table = new ArrayList<>();
      for (int i = 0; i < 3; i++) {
        sent.clear();
        Map<String, Long> before = commandStats();
        try (LockHandle h = lock.acquire("k-" + UUID.randomUUID())) {
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
  void theHealthProbeIsOnePing() {
    await(backend.checkHealth());
    sent.clear();
    assertThat(await(backend.checkHealth()).healthy()).isTrue();
    assertThat(sent).containsExactly("PING");
  }

  private long scriptCalls() {
    return serverCalls("evalsha") + serverCalls("eval");
  }

  /** Calls of {@code command} so far ({@code INFO commandstats}). */
  private long serverCalls(String command) {
    long n = 0;
    for (Map.Entry<String, Long> e : commandStats().entrySet()) {
      if (e.getKey().equals(command)) {
        n += e.getValue();
      }
    }
    return n;
  }

  /** Calls of every command but {@code INFO} (which the counting itself sends). */
  private long allServerCalls() {
    long n = 0;
    for (Map.Entry<String, Long> e : commandStats().entrySet()) {
      if (!e.getKey().equals("info")) {
        n += e.getValue();
      }
    }
    return n;
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
