package io.hostloom.redis;

import static io.hostloom.redis.Futures.await;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.hostloom.locking.spi.AcquireOutcome;
import io.hostloom.locking.spi.LeaseRecord;
import io.hostloom.locking.spi.ReplaceOutcome;
import io.hostloom.locking.spi.support.SpiLimits;
import io.hostloom.testkit.TestTiming;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.codec.StringCodec;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Redis-specific behaviour on a real server: layout, rounding, odd keys and values, tokens. */
class RedisLockBackendTest {
  private static final Duration LONG = Duration.ofSeconds(60);
  private final RedisServerProcess redis = RedisServerProcess.shared();
  private final List<AutoCloseable> toClose = new ArrayList<>();

  private RedisLockBackend backend() {
    RedisLockBackend b = RedisLockBackend.builder().uri(redis.uri()).build();
    toClose.add(b);
    return b;
  }

  @AfterEach
  void close() throws Exception {
    for (AutoCloseable c : toClose) {
      c.close();
    }
  }

  private static String key(String label) {
    return "test:lock:" + label + "-" + UUID.randomUUID();
  }

  @Test
  void keysFollowTheDocumentedLayoutAndTheCounterSurvivesRelease() {
    RedisLockBackend b = backend();
    String key = key("layout");
    AcquireOutcome granted = await(b.acquire(key, "owner-1", "data", LONG));

    assertThat(redis.command("EXISTS", "hl:{" + key + "}")).isEqualTo("1");
    assertThat(redis.command("GET", "hl:{" + key + "}"))
        .isEqualTo(granted.fencingToken() + "|7|owner-1data");
    assertThat(redis.command("GET", "hl:{" + key + "}:fence"))
        .isEqualTo(Long.toString(granted.fencingToken()));
    assertThat(await(b.release(key, "owner-1")).released()).isTrue();
    assertThat(redis.command("EXISTS", "hl:{" + key + "}")).isEqualTo("0");
    assertThat(redis.command("EXISTS", "hl:{" + key + "}:fence")).isEqualTo("1");
    long ttl = Long.parseLong(redis.command("PTTL", "hl:{" + key + "}:fence"));
    assertThat(ttl).isGreaterThan(Duration.ofHours(23).toMillis());
  }

  @Test
  void heldAnswersCarryTheHolderRecordFromTheSameScript() {
    RedisLockBackend a = backend();
    RedisLockBackend b = backend();
    String key = key("held");
    long token = await(a.acquire(key, "owner-a", "lock-id-a", LONG)).fencingToken();

    AcquireOutcome held = await(b.acquire(key, "owner-b", "lock-id-b", LONG));
    assertThat(held.granted()).isFalse();
    LeaseRecord holder = held.holder().orElseThrow();
    assertThat(holder.owner()).isEqualTo("owner-a");
    assertThat(holder.data()).isEqualTo("lock-id-a");
    assertThat(holder.fencingToken()).isEqualTo(token);
    assertThat(holder.remaining()).isPositive().isLessThanOrEqualTo(LONG);
  }

  @Test
  void sameOwnerAcquireRefreshesExpiryAndKeepsTokenAndData() {
    RedisLockBackend b = backend();
    String key = key("refresh");
    long token = await(b.acquire(key, "owner", "first", Duration.ofSeconds(5))).fencingToken();

    AcquireOutcome again = await(b.acquire(key, "owner", "second", LONG));
    assertThat(again.granted()).isTrue();
    assertThat(again.fencingToken()).isEqualTo(token);
    LeaseRecord r = await(b.read(key)).orElseThrow();
    assertThat(r.data()).isEqualTo("first");
    assertThat(r.remaining()).isGreaterThan(Duration.ofSeconds(50));
  }

  @Test
  void leaseMillisecondsRoundUpAndNeverToZero() {
    assertThat(RedisLockBackend.leaseMillis(Duration.ofNanos(1))).isEqualTo(1);
    assertThat(RedisLockBackend.leaseMillis(Duration.ofNanos(500_000))).isEqualTo(1);
    assertThat(RedisLockBackend.leaseMillis(Duration.ofMillis(1))).isEqualTo(1);
    assertThat(RedisLockBackend.leaseMillis(Duration.ofNanos(1_500_000))).isEqualTo(2);
    assertThat(RedisLockBackend.leaseMillis(Duration.ofMillis(1500))).isEqualTo(1500);
    assertThat(RedisLockBackend.leaseMillis(Duration.ofSeconds(10).plusNanos(1))).isEqualTo(10_001);
    assertThat(RedisLockBackend.leaseMillis(Duration.ofDays(365L * 100_000))).isEqualTo(1L << 50);
    assertThatThrownBy(() -> RedisLockBackend.leaseMillis(Duration.ZERO))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("but was PT0S");
  }

  @Test
  void subMillisecondLeasesReachTheServerAsOneMillisecond() {
    RedisLockBackend b = backend();
    String key = key("sub-ms");
    // PX 0 / PEXPIRE 0 would be an error or delete the key while answering success
    assertThat(await(b.acquire(key, "owner", "", Duration.ofNanos(1))).granted()).isTrue();
    String other = key("sub-ms-extend");
    await(b.acquire(other, "owner", "", LONG));
    assertThat(await(b.extend(other, "owner", Duration.ofNanos(400_000))).extended()).isTrue();
    TestTiming.await(
        "the 1 ms leases expire",
        () -> await(b.read(key)).isEmpty() && await(b.read(other)).isEmpty(),
        Duration.ofSeconds(2));
    assertThat(await(b.acquire(other, "next", "", LONG)).granted()).isTrue();
  }

  @Test
  void extendSetsTheServerExpiryToTheRoundedLease() {
    RedisLockBackend b = backend();
    String key = key("pexpire");
    await(b.acquire(key, "owner", "", LONG));
    assertThat(await(b.extend(key, "owner", Duration.ofSeconds(100).plusNanos(1))).extended())
        .isTrue();
    long pttl = Long.parseLong(redis.command("PTTL", "hl:{" + key + "}"));
    assertThat(pttl).isBetween(99_000L, 100_001L);
  }

  static List<String> oddKeys() {
    return List.of(
        "plain",
        "with space",
        "brace{tag}",
        "}{",
        "#looks-hashed",
        "caf\u00e9 \ud83d\ude00",
        "lone \ud800 high",
        "lone \udc00 low",
        "nul\u0000ctl\n",
        "x".repeat(RedisKeyLayout.MAX_READABLE_LENGTH),
        "x".repeat(RedisKeyLayout.MAX_READABLE_LENGTH + 1),
        "k".repeat(SpiLimits.MAX_KEY_LENGTH));
  }

  @ParameterizedTest
  @MethodSource("oddKeys")
  void anyKeyContentAndLengthWorks(String suffix) {
    RedisLockBackend b = backend();
    String key = "odd:" + UUID.randomUUID() + ":" + suffix;
    long token = await(b.acquire(key, "owner", "", LONG)).fencingToken();
    assertThat(await(b.read(key)).orElseThrow().fencingToken()).isEqualTo(token);
    assertThat(await(b.acquire(key, "other", "", LONG)).granted()).isFalse();
    assertThat(await(b.release(key, "owner")).released()).isTrue();
  }

  @Test
  void keysThatUtf8WouldMergeStayDistinct() {
    RedisLockBackend b = backend();
    String base = "merge:" + UUID.randomUUID() + ":";
    // a UTF-8 encoder turns both lone surrogates into '?'
    assertThat(await(b.acquire(base + "\ud800", "a", "", LONG)).granted()).isTrue();
    assertThat(await(b.acquire(base + "\udbff", "b", "", LONG)).granted()).isTrue();
    assertThat(await(b.acquire(base + "?", "c", "", LONG)).granted()).isTrue();
  }

  @Test
  void ownersAndDataRoundTripExactlyIncludingLoneSurrogates() {
    RedisLockBackend b = backend();
    String key = key("values");
    String owner = "owner \ud800 \udfff \ud83d\ude00 \u0000 end";
    String data = "{\"S\":\"\ud83d\"} \u00e9 \n" + "d".repeat(2000);
    await(b.acquire(key, owner, data, LONG));

    LeaseRecord r = await(b.read(key)).orElseThrow();
    assertThat(r.owner()).isEqualTo(owner);
    assertThat(r.data()).isEqualTo(data);
    // an owner that UTF-8 would make equal is another owner
    assertThat(await(b.release(key, "owner ? ? \ud83d\ude00 \u0000 end")).released()).isFalse();
    assertThat(
            await(b.acquire(key, "owner \udbff \udfff \ud83d\ude00 \u0000 end", "", LONG))
                .granted())
        .isFalse();
    assertThat(await(b.release(key, owner)).released()).isTrue();
  }

  @Test
  void tokensStrictlyIncreaseOverReleaseExpiryAndReplace() {
    RedisLockBackend b = backend();
    String key = key("tokens");
    long last = 0;
    for (int i = 0; i < 20; i++) {
      long t = await(b.acquire(key, "o" + i, "", LONG)).fencingToken();
      assertThat(t).isGreaterThan(last);
      last = t;
      ReplaceOutcome r = await(b.replace(key, "o" + i, "r" + i, "", LONG));
      assertThat(r.fencingToken()).isGreaterThan(last);
      last = r.fencingToken();
      assertThat(await(b.release(key, "r" + i)).released()).isTrue();
    }
    long beforeExpiry = await(b.acquire(key, "short", "", Duration.ofMillis(50))).fencingToken();
    TestTiming.await("lease expires", () -> await(b.read(key)).isEmpty(), Duration.ofSeconds(2));
    assertThat(await(b.acquire(key, "after", "", LONG)).fencingToken()).isGreaterThan(beforeExpiry);
  }

  @Test
  void tokensKeepIncreasingWhenTheCounterIsLost() {
    RedisLockBackend b = backend();
    String key = key("flush");
    long before = await(b.acquire(key, "o1", "", LONG)).fencingToken();
    redis.command("FLUSHALL");
    assertThat(await(b.acquire(key, "o2", "", LONG)).fencingToken()).isGreaterThan(before);
  }

  @Test
  void tokensKeepIncreasingAcrossARestartWithoutPersistence() {
    try (RedisServerProcess own = RedisServerProcess.startNew();
        RedisLockBackend b = RedisLockBackend.builder().uri(own.uri()).build()) {
      String key = key("restart");
      long before = await(b.acquire(key, "o1", "", LONG)).fencingToken();
      own.kill();
      own.start();
      assertThat(own.command("EXISTS", "hl:{" + key + "}:fence")).isEqualTo("0");
      long[] after = new long[1];
      TestTiming.await(
          "the same backend reconnects and grants",
          () -> {
            try {
              after[0] = await(b.acquire(key, "o2", "", LONG)).fencingToken();
              return true;
            } catch (TestTiming.CompletionFailure e) {
              return false; // still reconnecting: UNAVAILABLE
            }
          },
          Duration.ofSeconds(10));
      assertThat(after[0]).isGreaterThan(before);
    }
  }

  @Test
  void replaceAnswersReplacedMismatchOrAbsent() {
    RedisLockBackend b = backend();
    String key = key("replace");
    assertThat(await(b.replace(key, "a", "b", "", LONG))).isEqualTo(ReplaceOutcome.absent());
    await(b.acquire(key, "a", "data-a", LONG));
    ReplaceOutcome mismatch = await(b.replace(key, "x", "b", "", LONG));
    assertThat(mismatch.replaced()).isFalse();
    assertThat(mismatch.current().orElseThrow().owner()).isEqualTo("a");
    assertThat(mismatch.current().orElseThrow().data()).isEqualTo("data-a");
    assertThat(await(b.replace(key, "a", "b", "data-b", LONG)).replaced()).isTrue();
    LeaseRecord now = await(b.read(key)).orElseThrow();
    assertThat(now.owner()).isEqualTo("b");
    assertThat(now.data()).isEqualTo("data-b");
  }

  @Test
  void aUserConnectionOfAnyCodecWorksAndStaysOpen() {
    RedisClient client = RedisClient.create(redis.uri());
    try (StatefulRedisConnection<String, String> conn = client.connect(StringCodec.UTF8)) {
      RedisLockBackend b = RedisLockBackend.builder().connection(conn).build();
      String key = key("user-connection");
      String data = "lone \ud800";
      await(b.acquire(key, "owner", data, LONG));
      assertThat(await(b.read(key)).orElseThrow().data()).isEqualTo(data);
      b.close();
      assertThat(conn.isOpen()).isTrue();
      assertThat(conn.sync().ping()).isEqualTo("PONG");
    } finally {
      client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
    }
  }

  @Test
  void aUserClientIsUsedWithTheUriAndNotShutDown() {
    RedisClient client = RedisClient.create();
    try {
      RedisLockBackend b = RedisLockBackend.builder().client(client).uri(redis.uri()).build();
      String key = key("user-client");
      assertThat(await(b.acquire(key, "o", "", LONG)).granted()).isTrue();
      b.close();
      try (StatefulRedisConnection<String, String> c =
          client.connect(io.lettuce.core.RedisURI.create(redis.uri()))) {
        assertThat(c.sync().ping()).isEqualTo("PONG");
      }
    } finally {
      client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
    }
  }

  @Test
  void operationsOnAClosedBackendFailAsUnavailable() {
    RedisLockBackend b = backend();
    b.close();
    b.close(); // idempotent
    assertThatThrownBy(() -> await(b.read(key("closed"))))
        .hasRootCauseMessage("Redis backend is closed");
  }

  @Test
  void builderRejectsBadValuesWithTheValueInTheMessage() {
    assertThatThrownBy(() -> RedisLockBackend.builder().build())
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("exactly one");
    RedisClusterClient cluster = RedisClusterClient.create(redis.uri());
    try {
      assertThatThrownBy(
              () -> RedisLockBackend.builder().uri(redis.uri()).clusterClient(cluster).build())
          .isInstanceOf(IllegalStateException.class)
          .hasMessageEndingWith("but got [uri clusterClient]");
    } finally {
      cluster.shutdown(Duration.ZERO, Duration.ofSeconds(2));
    }
    assertThatThrownBy(() -> RedisLockBackend.builder().client(RedisClient.create()).build())
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("uri was not set");
    assertThatThrownBy(() -> RedisLockBackend.builder().commandTimeout(Duration.ZERO))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("commandTimeout must be positive but was PT0S");
    assertThatThrownBy(() -> RedisLockBackend.builder().keyPrefix("a{b"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("a{b");
    assertThatThrownBy(() -> RedisLockBackend.builder().uri("http://nope"))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void reportsMemoryPerKeyForTheReadme() {
    RedisLockBackend b = backend();
    String key = "app:lock:invoice-" + "7".repeat(8);
    await(b.acquire(key, UUID.randomUUID().toString().replace("-", ""), "", LONG));
    String lease = redis.command("MEMORY", "USAGE", "hl:{" + key + "}");
    await(b.release(key, await(b.read(key)).orElseThrow().owner()));
    String fence = redis.command("MEMORY", "USAGE", "hl:{" + key + "}:fence");
    System.out.printf(
        "[redis memory] key %s (%d chars): lease string %s B, fence counter %s B%n",
        key, key.length(), lease, fence);
    assertThat(Long.parseLong(fence)).isPositive();
  }
}
