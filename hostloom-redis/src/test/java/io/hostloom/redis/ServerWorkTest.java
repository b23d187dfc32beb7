package io.hostloom.redis;

import static org.assertj.core.api.Assertions.assertThat;

import io.hostloom.locking.spi.LockBackend;
import io.lettuce.core.RedisClient;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.SetArgs;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ThreadLocalRandom;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Server work per uncontended acquire + release, side by side on one private server: the commands
 * the scripts run (asserted) and the server time {@code INFO commandstats} counts for the commands
 * the client sent (printed, never asserted: the machine is shared). Variants: the floor (raw {@code
 * SET NX PX} plus a compare-and-{@code DEL} script), the scripts of the previous release (hash
 * lease, {@code TIME + GET + SET} per token, a done key per release, a {@code PUBLISH} per release;
 * kept here verbatim as the baseline), the backend with its defaults, and the lean settings ({@code
 * fencingTokens(false)}, {@code releaseNotifications(false)}: a plain {@code SET NX PX} and a small
 * release script). Every key is used once before the counters are reset, so the figures are the
 * steady state (the fence counter exists).
 *
 * <p>Run: {@code ./mvnw -B -ntp -pl hostloom-redis -am verify -Dtest=ServerWorkTest
 * -Dsurefire.failIfNoSpecifiedTests=false}; prints lines starting with {@code [redis server work]}.
 */
class ServerWorkTest {
  private static final int KEYS = 1024;
  private static final int CYCLES = 3000;
  private static final int ROUNDS = 3;
  private static final Duration LEASE = Duration.ofSeconds(30);

  private static RedisServerProcess redis;
  private static RedisClient client;
  private static StatefulRedisConnection<String, String> raw;

  @BeforeAll
  static void start() {
    redis = RedisServerProcess.startNew();
    client = RedisClient.create(redis.uri());
    raw = client.connect();
  }

  @AfterAll
  static void stop() {
    raw.close();
    client.shutdown();
    redis.close();
  }

  /** One uncontended cycle on key {@code i}. */
  private interface Cycle {
    void run(int i);
  }

  /**
   * Runs every key once, resets the counters, runs {@link #CYCLES}; per command, calls and µs per
   * cycle. {@code sent}: the commands the client sends (their time includes the scripts').
   */
  private static Map<String, double[]> measure(String name, Set<String> sent, Cycle cycle) {
    for (int i = 0; i < KEYS; i++) {
      cycle.run(i);
    }
    RedisCommands<String, String> c = raw.sync();
    c.configResetstat();
    ThreadLocalRandom r = ThreadLocalRandom.current();
    for (int n = 0; n < CYCLES; n++) {
      cycle.run(r.nextInt(KEYS));
    }
    Map<String, double[]> perCycle = new TreeMap<>(); // command -> {calls, usec} per cycle
    for (String line : c.info("commandstats").split("\r?\n", -1)) {
      if (line.startsWith("cmdstat_")) {
        String command = line.substring("cmdstat_".length(), line.indexOf(':'));
        if (command.equals("info") || command.startsWith("config")) {
          continue;
        }
        perCycle.put(
            command,
            new double[] {
              field(line, "calls=") / (double) CYCLES, field(line, "usec=") / (double) CYCLES
            });
      }
    }
    double top = 0;
    List<String> inner = new ArrayList<>();
    for (var e : perCycle.entrySet()) {
      if (sent.contains(e.getKey())) {
        top += e.getValue()[1];
      } else {
        inner.add(String.format(Locale.ROOT, "%s %.0f", e.getKey(), e.getValue()[0]));
      }
    }
    TOTALS.merge(name, top, Math::min);
    System.out.printf(
        Locale.ROOT,
        "[redis server work] %-34s %6.2f us per cycle; commands inside scripts: %s%n",
        name,
        top,
        String.join(", ", inner));
    return perCycle;
  }

  private static final String FLOOR = "floor (SET NX PX, GET + DEL script)";
  private static final Map<String, Double> TOTALS = new TreeMap<>();
  private static final Set<String> SCRIPTS = Set.of("evalsha");

  private static long field(String line, String name) {
    int i = line.indexOf(name) + name.length();
    int j = line.indexOf(',', i);
    return Long.parseLong(line.substring(i, j < 0 ? line.length() : j));
  }

  private static Map<String, Long> calls(Map<String, double[]> perCycle) {
    Map<String, Long> m = new TreeMap<>();
    perCycle.forEach((k, v) -> m.put(k, Math.round(v[0])));
    return m;
  }

  private static Cycle backendCycle(LockBackend b) {
    return i -> {
      String key = "sw:lock:" + i;
      assertThat(b.acquire(key, "owner", "", LEASE).join().granted()).isTrue();
      assertThat(b.release(key, "owner").join().released()).isTrue();
    };
  }

  @Test
  void serverWorkPerUncontendedCycle() {
    RedisCommands<String, String> c = raw.sync();
    String cad = c.scriptLoad(FLOOR_RELEASE);
    // interleaved rounds; the least server time per variant (a loaded machine only adds to it)
    Map<String, double[]> floor = null;
    Map<String, double[]> previous = null;
    Map<String, double[]> defaults = null;
    Map<String, double[]> lean = null;
    for (int round = 0; round < ROUNDS; round++) {
      floor =
          measure(
              FLOOR,
              Set.of("evalsha", "set"),
              i -> {
                String key = "floor:" + i;
                assertThat(c.set(key, "owner", SetArgs.Builder.nx().px(30_000))).isEqualTo("OK");
                assertThat(
                        (Long)
                            c.evalsha(cad, ScriptOutputType.INTEGER, new String[] {key}, "owner"))
                    .isEqualTo(1L);
              });
      String acquire = c.scriptLoad(PREVIOUS_ACQUIRE);
      String release = c.scriptLoad(PREVIOUS_RELEASE);
      previous =
          measure(
              "previous release (0dfc0ed scripts)",
              SCRIPTS,
              i -> {
                String lease = "old:{sw:lock:" + i + "}";
                List<Object> a =
                    c.evalsha(
                        acquire,
                        ScriptOutputType.MULTI,
                        new String[] {lease, lease + ":fence"},
                        "owner",
                        "",
                        "30000",
                        "86430000");
                assertThat(a.get(0)).isEqualTo(1L);
                String id = Long.toHexString(ThreadLocalRandom.current().nextLong());
                List<Object> r =
                    c.evalsha(
                        release,
                        ScriptOutputType.MULTI,
                        new String[] {lease, lease + ":done:" + id},
                        "owner",
                        lease + ":released",
                        "11000");
                assertThat(r.get(0)).isEqualTo(1L);
              });
      try (RedisLockBackend b = RedisLockBackend.builder().uri(redis.uri()).build()) {
        defaults = measure("HostLoom, defaults", SCRIPTS, backendCycle(b));
      }
      try (RedisLockBackend b =
          RedisLockBackend.builder()
              .uri(redis.uri())
              .fencingTokens(false)
              .releaseNotifications(false)
              .build()) {
        lean = measure("HostLoom, lean settings", Set.of("evalsha", "set"), backendCycle(b));
      }
    }
    System.out.printf(
        Locale.ROOT,
        "[redis server work] least of %d rounds, us per cycle: floor %.2f, previous %.2f,"
            + " defaults %.2f, lean %.2f; ratios to the floor: previous %.2fx, defaults %.2fx,"
            + " lean %.2fx%n",
        ROUNDS,
        TOTALS.get(FLOOR),
        TOTALS.get("previous release (0dfc0ed scripts)"),
        TOTALS.get("HostLoom, defaults"),
        TOTALS.get("HostLoom, lean settings"),
        TOTALS.get("previous release (0dfc0ed scripts)") / TOTALS.get(FLOOR),
        TOTALS.get("HostLoom, defaults") / TOTALS.get(FLOOR),
        TOTALS.get("HostLoom, lean settings") / TOTALS.get(FLOOR));

    assertThat(calls(previous))
        .as("the baseline: TIME per token, a done key and a PUBLISH per release")
        .containsEntry("time", 1L)
        .containsEntry("publish", 1L)
        .containsEntry("hset", 1L);
    assertThat(calls(floor)).isEqualTo(Map.of("set", 1L, "evalsha", 1L, "get", 1L, "del", 1L));
    assertThat(calls(defaults))
        .as("defaults: one INCR step per token, no PUBLISH nobody waits for, no per-call key")
        .isEqualTo(
            new TreeMap<>(
                Map.of(
                    "evalsha", 2L, "get", 2L, "incr", 1L, "pexpire", 1L, "set", 1L, "pttl", 1L,
                    "del", 1L, "exists", 1L)));
    assertThat(calls(lean))
        .as("lean: the grant a plain SET NX PX; the release GET, PTTL, DEL; no counter, no flag")
        .isEqualTo(
            new TreeMap<>(Map.of("set", 1L, "evalsha", 1L, "get", 1L, "pttl", 1L, "del", 1L)));
  }

  private static final String FLOOR_RELEASE =
      "if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end"
          + " return 0";

  // the previous release's acquire and release scripts (commit 0dfc0ed), the baseline
  private static final String PREVIOUS_PRELUDE =
      "if redis.replicate_commands then redis.replicate_commands() end\n";

  private static final String PREVIOUS_ACQUIRE =
      PREVIOUS_PRELUDE
          + """
          local function nextToken(fence, ttl, floor)
            local t = redis.call('TIME')
            local now = tonumber(t[1]) * 1000000 + tonumber(t[2])
            local last = tonumber(redis.call('GET', fence) or '0') or 0
            if floor then last = math.max(last, tonumber(floor) or 0) end
            local token = string.format('%.0f', math.max(last + 1, now))
            redis.call('SET', fence, token, 'PX', ttl)
            return token
          end
          local cur = redis.call('HMGET', KEYS[1], 'o', 'd', 't')
          if cur[1] then
            local ttl = redis.call('PTTL', KEYS[1])
            if ttl ~= 0 then
              if cur[1] == ARGV[1] then
                redis.call('PEXPIRE', KEYS[1], ARGV[3])
                redis.call('PEXPIRE', KEYS[2], ARGV[4])
                return {1, cur[3]}
              end
              return {0, cur[3], cur[1], cur[2], ttl}
            end
          end
          local token = nextToken(KEYS[2], ARGV[4], cur[3])
          redis.call('HSET', KEYS[1], 'o', ARGV[1], 'd', ARGV[2], 't', token)
          redis.call('PEXPIRE', KEYS[1], ARGV[3])
          return {1, token}
          """;

  private static final String PREVIOUS_RELEASE =
      PREVIOUS_PRELUDE
          + """
          if redis.call('EXISTS', KEYS[2]) == 1 then return {1} end
          local cur = redis.call('HMGET', KEYS[1], 'o', 'd', 't')
          if not cur[1] then return {0} end
          local ttl = redis.call('PTTL', KEYS[1])
          if ttl == 0 then return {0} end
          if cur[1] ~= ARGV[1] then return {2, cur[3], cur[1], cur[2], ttl} end
          redis.call('DEL', KEYS[1])
          redis.call('SET', KEYS[2], '1', 'PX', ARGV[3])
          if ARGV[2] ~= '' then redis.call('PUBLISH', ARGV[2], 'released') end
          return {1}
          """;
}
