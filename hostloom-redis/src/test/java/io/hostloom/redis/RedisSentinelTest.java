package io.hostloom.redis;

import static io.hostloom.redis.Futures.await;
import static org.assertj.core.api.Assertions.assertThat;

import io.hostloom.testkit.TestTiming;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/** A {@code redis-sentinel://} URI: the backend finds the primary through a real Sentinel. */
class RedisSentinelTest {
  @Test
  void locksThroughASentinelUri() {
    try (RedisServerProcess primary = RedisServerProcess.startNew();
        RedisServerProcess sentinel = RedisServerProcess.startNewSentinel(primary);
        RedisLockBackend b =
            RedisLockBackend.builder()
                .uri("redis-sentinel://127.0.0.1:" + sentinel.port() + "#mymaster")
                .build()) {
      String key = "sentinel:lock:" + UUID.randomUUID();
      assertThat(await(b.acquire(key, "a", "", Duration.ofSeconds(30))).granted()).isTrue();
      assertThat(primary.command("EXISTS", b.layout().leaseKey(key))).isEqualTo("1");

      ReleaseSignalTest.awaitSubscribed(b);
      assertThat(primary.command("PUBSUB", "NUMPAT")).isEqualTo("1"); // on the primary
      CompletableFuture<Boolean> woken = b.awaitRelease(key, Duration.ofSeconds(30));
      // the waiter's refused attempt flags the key, so the release publishes
      assertThat(await(b.acquire(key, "w", "", Duration.ofSeconds(30))).granted()).isFalse();
      assertThat(await(b.release(key, "a")).released()).isTrue();
      assertThat(TestTiming.get(woken, Duration.ofSeconds(5))).isTrue();
      assertThat(await(b.checkHealth()).healthy()).isTrue();
    }
  }
}
