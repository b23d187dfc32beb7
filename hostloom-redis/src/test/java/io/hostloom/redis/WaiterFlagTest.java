package io.hostloom.redis;

import static io.hostloom.redis.Futures.await;
import static org.assertj.core.api.Assertions.assertThat;

import io.hostloom.testkit.TestTiming;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Pay for what you use: with the defaults a release publishes only when a waiter flagged its key,
 * and a waiter flags it in the refused acquire that precedes its wait (the kernel's protocol: wait
 * first, then attempt). Checked on a real server with several backend instances.
 */
class WaiterFlagTest {
  private static final Duration LONG = Duration.ofSeconds(60);
  private static final Duration WAKE = Duration.ofSeconds(10);

  private final RedisServerProcess redis = RedisServerProcess.shared();
  private final List<RedisLockBackend> backends = new ArrayList<>();

  @AfterEach
  void close() {
    backends.forEach(RedisLockBackend::close);
  }

  private RedisLockBackend backend(boolean announceEveryRelease) {
    RedisLockBackend b =
        RedisLockBackend.builder()
            .uri(redis.uri())
            .announceEveryRelease(announceEveryRelease)
            .build();
    backends.add(b);
    await(b.warmUp());
    assertThat(b.releaseSignalUp()).as("warm-up started the subscription").isTrue();
    return b;
  }

  private static String key() {
    return "flag:lock:" + UUID.randomUUID();
  }

  private String flag(String key) {
    return "hl:{" + key + "}:w";
  }

  private long publishes() {
    for (String line : redis.command("INFO", "commandstats").split("\r?\n", -1)) {
      if (line.startsWith("cmdstat_publish:")) {
        return Long.parseLong(line.substring(line.indexOf("calls=") + 6, line.indexOf(',')));
      }
    }
    return 0;
  }

  @Test
  void aReleaseNobodyWaitsForPublishesNothingAndARefusalWithoutAWaitFlagsNothing() {
    RedisLockBackend holder = backend(false);
    RedisLockBackend other = backend(false);
    String key = key();
    long before = publishes();
    assertThat(await(holder.acquire(key, "h", "", LONG)).granted()).isTrue();
    assertThat(await(other.acquire(key, "o", "", LONG)).granted())
        .as("refused, like a WOPI LOCK")
        .isFalse();
    assertThat(redis.command("EXISTS", flag(key))).as("no waiter, no flag").isEqualTo("0");
    assertThat(await(holder.release(key, "h")).released()).isTrue();
    assertThat(publishes() - before).isZero();
  }

  @Test
  void aWaitersRefusedAttemptFlagsTheKeyAndTheReleaseWakesIt() {
    RedisLockBackend holder = backend(false);
    RedisLockBackend waiter = backend(false);
    String key = key();
    assertThat(await(holder.acquire(key, "h", "", LONG)).granted()).isTrue();
    CompletableFuture<Boolean> woken = waiter.awaitRelease(key, LONG);
    assertThat(await(waiter.acquire(key, "w", "", LONG)).granted()).isFalse();
    long pttl = Long.parseLong(redis.command("PTTL", flag(key)));
    assertThat(pttl)
        .as("the flag lasts as long as the wait, plus the margin")
        .isGreaterThan(LONG.toMillis() - WAKE.toMillis())
        .isLessThanOrEqualTo(LONG.toMillis() + RedisLockBackend.WAITER_FLAG_MARGIN_MILLIS);
    long before = publishes();
    assertThat(await(holder.release(key, "h")).released()).isTrue();
    assertThat(TestTiming.get(woken, WAKE)).isTrue();
    assertThat(publishes() - before).isEqualTo(1);
  }

  @Test
  void theFlagOutlivesTheNextGrantSoAWaitStillPendingIsWokenByTheNextHoldersRelease() {
    RedisLockBackend holder = backend(false);
    RedisLockBackend waiter = backend(false);
    RedisLockBackend third = backend(false);
    String key = key();
    assertThat(await(holder.acquire(key, "h", "", LONG)).granted()).isTrue();
    CompletableFuture<Boolean> first = waiter.awaitRelease(key, LONG);
    CompletableFuture<Boolean> second = waiter.awaitRelease(key, LONG);
    assertThat(await(waiter.acquire(key, "w", "", LONG)).granted()).isFalse();
    assertThat(await(holder.release(key, "h")).released()).isTrue();
    assertThat(TestTiming.get(first, WAKE)).as("one wait per release and backend").isTrue();
    assertThat(second).isNotDone();
    // another instance takes the key before the woken waiter retries, then releases it: the flag
    // set for both waits is still there, so that release publishes too
    assertThat(await(third.acquire(key, "t", "", LONG)).granted()).isTrue();
    assertThat(await(third.release(key, "t")).released()).isTrue();
    assertThat(TestTiming.get(second, WAKE)).isTrue();
  }

  @Test
  void aReplaceOfAFlaggedKeyWakesToo() {
    RedisLockBackend holder = backend(false);
    RedisLockBackend waiter = backend(false);
    String key = key();
    await(holder.acquire(key, "a", "", LONG));
    CompletableFuture<Boolean> woken = waiter.awaitRelease(key, LONG);
    assertThat(await(waiter.acquire(key, "w", "", LONG)).granted()).isFalse();
    assertThat(await(holder.replace(key, "a", "b", "", LONG)).replaced()).isTrue();
    assertThat(TestTiming.get(woken, WAKE)).isTrue();
  }

  @Test
  void aBareWaitIsWokenOnlyByABackendThatAnnouncesEveryRelease() {
    RedisLockBackend quiet = backend(false);
    RedisLockBackend loud = backend(true);
    RedisLockBackend waiter = backend(false);
    String q = key();
    String l = key();
    await(quiet.acquire(q, "a", "", LONG));
    await(loud.acquire(l, "a", "", LONG));
    Duration shortWait = Duration.ofMillis(500);
    CompletableFuture<Boolean> notWoken = waiter.awaitRelease(q, shortWait);
    CompletableFuture<Boolean> woken = waiter.awaitRelease(l, LONG);
    long before = publishes();
    assertThat(await(quiet.release(q, "a")).released()).isTrue();
    assertThat(await(loud.release(l, "a")).released()).isTrue();
    assertThat(TestTiming.get(woken, WAKE)).isTrue();
    assertThat(TestTiming.get(notWoken, WAKE))
        .as("no refused attempt flagged the key: its release published nothing")
        .isFalse();
    assertThat(publishes() - before).isEqualTo(1);
  }
}
