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
  void leanAndDefaultBackendsReadAndReleaseEachOthersLeases() {
    try (RedisLockBackend lean =
            RedisLockBackend.builder()
                .uri(redis.uri())
                .fencingTokens(false)
                .releaseNotifications(false)
                .build();
        RedisLockBackend full = RedisLockBackend.builder().uri(redis.uri()).build()) {
      // the plain SET writes the script's value format: lone surrogates at the owner/data seam
      // stay lone (encoded apart, as the script joins them), and the default backend reads it
      String owner = "o\uD800";
      String data = "\uDC00d|1|x";
      String key = key();
      assertThat(await(lean.acquire(key, owner, data, LONG)).fencingToken()).isEqualTo(1);
      var r = await(full.read(key)).orElseThrow();
      assertThat(r.owner()).isEqualTo(owner);
      assertThat(r.data()).isEqualTo(data);
      assertThat(r.fencingToken()).isEqualTo(1);
      AcquireOutcome refused = await(full.acquire(key, owner + "x", "", LONG));
      assertThat(refused.holder().orElseThrow().owner()).isEqualTo(owner);
      assertThat(await(full.acquire(key, owner, "other", LONG)).fencingToken())
          .as("the owner's refresh keeps token and data")
          .isEqualTo(1);
      assertThat(await(full.read(key)).orElseThrow().data()).isEqualTo(data);
      assertThat(await(lean.release(key, owner + "x")).released()).isFalse();
      assertThat(await(lean.release(key, owner)).released()).isTrue();

      // a fenced lease (token above 1) released by the lean script: parsed, not prefix-matched
      String fenced = key();
      long token = await(full.acquire(fenced, "1", "", LONG)).fencingToken();
      assertThat(token).isGreaterThan(1);
      var mismatch = await(lean.release(fenced, "2"));
      assertThat(mismatch.released()).isFalse();
      assertThat(await(lean.acquire(fenced, "2", "", LONG)).holder().orElseThrow().fencingToken())
          .isEqualTo(token);
      assertThat(await(lean.acquire(fenced, "1", "", LONG)).fencingToken())
          .as("a lean refresh of a fenced lease keeps its token")
          .isEqualTo(token);
      assertThat(await(lean.release(fenced, "1")).released()).isTrue();
      assertThat(redis.command("EXISTS", "hl:{" + fenced + "}")).isEqualTo("0");
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
