package io.hostloom.redis;

import static io.hostloom.redis.Futures.await;
import static org.assertj.core.api.Assertions.assertThat;

import io.lettuce.core.RedisClient;
import io.lettuce.core.event.command.CommandListener;
import io.lettuce.core.event.command.CommandStartedEvent;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Counts the commands each operation sends, on both sides: the client's command listener (every
 * command Lettuce writes on the backend's connection) and the server's {@code INFO commandstats}
 * (top-level {@code EVALSHA}/{@code EVAL} calls). One command is one round trip.
 */
class RoundTripCountTest {
  private static final Duration LONG = Duration.ofSeconds(60);

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
  void theHealthProbeIsOnePing() {
    await(backend.checkHealth());
    sent.clear();
    assertThat(await(backend.checkHealth()).healthy()).isTrue();
    assertThat(sent).containsExactly("PING");
  }

  private long scriptCalls() {
    long n = 0;
    for (String line : redis.command("INFO", "commandstats").split("\r?\n", -1)) {
      if (line.startsWith("cmdstat_evalsha:") || line.startsWith("cmdstat_eval:")) {
        String calls = line.substring(line.indexOf("calls=") + 6);
        n += Long.parseLong(calls.substring(0, calls.indexOf(',')));
      }
    }
    return n;
  }
}
