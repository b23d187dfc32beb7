package io.hostloom.redis;

import static io.hostloom.redis.Futures.await;
import static org.assertj.core.api.Assertions.assertThat;

import io.hostloom.locking.spi.AcquireOutcome;
import java.time.Duration;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * {@code fencingTokens(false)}: no counter (no {@code INCR}, no counter key), every grant reports
 * token 1; exclusion, holder records, extend, replace and read are unchanged. Plus {@link
 * RedisLockBackend#warmUp()}. (The defaults are what every other test of this module runs.)
 */
class LeanSettingsTest {
  private static final Duration LONG = Duration.ofSeconds(60);

  private final RedisServerProcess redis = RedisServerProcess.shared();

  private static String key() {
    return "lean:lock:" + UUID.randomUUID();
  }

  @Test
  void withoutFencingTokensNoCounterIsKeptAndExclusionIsUnchanged() {
    try (RedisLockBackend b =
        RedisLockBackend.builder().uri(redis.uri()).fencingTokens(false).build()) {
      String key = key();
      assertThat(await(b.acquire(key, "a", "data-a", LONG)).fencingToken()).isEqualTo(1);
      AcquireOutcome refused = await(b.acquire(key, "b", "", LONG));
      assertThat(refused.granted()).isFalse();
      assertThat(refused.holder().orElseThrow().owner()).isEqualTo("a");
      assertThat(refused.holder().orElseThrow().data()).isEqualTo("data-a");
      assertThat(await(b.acquire(key, "a", "data-a", LONG)).granted()).as("own refresh").isTrue();
      assertThat(await(b.extend(key, "a", LONG)).extended()).isTrue();
      assertThat(await(b.extend(key, "b", LONG)).extended()).isFalse();
      assertThat(await(b.replace(key, "a", "c", "data-c", LONG)).fencingToken()).isEqualTo(1);
      assertThat(await(b.read(key)).orElseThrow().owner()).isEqualTo("c");
      assertThat(await(b.release(key, "a")).released()).isFalse();
      assertThat(await(b.release(key, "c")).released()).isTrue();
      assertThat(redis.command("EXISTS", "hl:{" + key + "}:fence")).isEqualTo("0");
      assertThat(redis.command("EXISTS", "hl:{" + key + "}")).isEqualTo("0");
    }
  }

  @Test
  void warmUpConnectsLoadsTheScriptsAndStartsTheSubscription() {
    redis.command("SCRIPT", "FLUSH");
    try (RedisLockBackend b = RedisLockBackend.builder().uri(redis.uri()).build()) {
      assertThat(b.releaseSignalUp()).isFalse();
      await(b.warmUp());
      assertThat(b.releaseSignalUp()).isTrue();
      for (LeaseScripts.Script s : LeaseScripts.ALL) {
        assertThat(redis.command("SCRIPT", "EXISTS", s.sha1())).as(s.name()).contains("1");
      }
    }
  }
}
