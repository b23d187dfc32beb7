package io.hostloom.redis;

import static io.hostloom.redis.Futures.await;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.hostloom.locking.spi.LockBackend;
import io.hostloom.testkit.TestTiming;
import io.hostloom.testkit.capability.ReleaseSignalSuite;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@link RedisLockBackend} as an {@link io.hostloom.locking.spi.ReleaseSignal} on a real server:
 * the testkit's {@link ReleaseSignalSuite} (release and replace wake the waits of their key through
 * the one pattern subscription; expiry, refusals and {@code maxWait} end them with {@code false};
 * cancelling frees them), plus what is Redis's own: whenever the subscription is not live a wait
 * answers {@code false} at once, notifications off, a bare connection, close, a server restart.
 */
class ReleaseSignalTest extends ReleaseSignalSuite {
  private static final Duration LONG = Duration.ofSeconds(60);
  private static final Duration WAKE = Duration.ofSeconds(5);

  private final RedisServerProcess redis = RedisServerProcess.shared();
  private final List<RedisLockBackend> backends = new ArrayList<>();

  private RedisLockBackend backend(boolean notifications) {
    RedisLockBackend b =
        RedisLockBackend.builder()
            .uri(redis.uri())
            .releaseNotifications(notifications)
            .announceEveryRelease(true) // the suite waits without a refused attempt
            .build();
    backends.add(b);
    return b;
  }

  /** A backend whose release subscription is live. */
  private RedisLockBackend subscribed() {
    RedisLockBackend b = backend(true);
    awaitSubscribed(b);
    return b;
  }

  @Override
  protected LockBackend newBackend() {
    return backend(true);
  }

  @Override
  protected void awaitSignalReady(LockBackend instance) {
    awaitSubscribed((RedisLockBackend) instance);
  }

  @Override
  protected boolean wakesEveryWait() {
    return false; // one wait per key and backend: no thundering herd (README, release signal)
  }

  @Override
  protected OptionalInt pendingWaits(LockBackend instance) {
    return OptionalInt.of(((RedisLockBackend) instance).releaseWaiters());
  }

  static void awaitSubscribed(RedisLockBackend b) {
    // the first wait starts the subscription and is held until it is confirmed
    CompletableFuture<Boolean> first = b.awaitRelease("warm-up:lock:x", LONG);
    TestTiming.await("the release pattern subscription is confirmed", b::releaseSignalUp, WAKE);
    first.cancel(false);
  }

  @AfterEach
  void closeOwnBackends() {
    backends.forEach(RedisLockBackend::close);
  }

  private static String key() {
    return "signal:lock:" + UUID.randomUUID();
  }

  @Test
  void theFirstWaitStartsTheSubscriptionAndAnswersTrueOnceItIsConfirmed() {
    RedisLockBackend b = backend(true);
    assertThat(b.releaseSignalUp()).isFalse();
    CompletableFuture<Boolean> first = b.awaitRelease(key(), LONG);
    // true, not false: the caller re-checks the key as soon as a release can no longer be missed
    assertThat(TestTiming.get(first, WAKE)).isTrue();
    assertThat(b.releaseSignalUp()).isTrue();
    assertThat(b.releaseWaiters()).isZero();
  }

  @Test
  void aWaitWhoseStartFailsAnswersFalseSoTheCallerPolls() {
    RedisLockBackend b =
        RedisLockBackend.builder()
            .uri("redis://127.0.0.1:" + RedisServerProcess.freePort())
            .commandTimeout(Duration.ofMillis(500))
            .build();
    backends.add(b);
    assertThat(TestTiming.get(b.awaitRelease(key(), LONG), WAKE)).isFalse();
    assertThat(b.releaseWaiters()).isZero();
  }

  @Test
  void aReleaseWakesOneWaitOfThatKeyOnly() {
    RedisLockBackend holder = backend(true);
    RedisLockBackend waiter = subscribed();
    String key = key();
    String other = key();
    await(holder.acquire(key, "h", "", LONG));
    await(holder.acquire(other, "h", "", LONG));

    CompletableFuture<Boolean> woken = waiter.awaitRelease(key, LONG);
    CompletableFuture<Boolean> alsoWoken = waiter.awaitRelease(key, LONG);
    CompletableFuture<Boolean> notWoken = waiter.awaitRelease(other, LONG);
    assertThat(waiter.releaseWaiters()).isEqualTo(3);

    // one release wakes one wait of the key (the oldest): one retry per release, not one per waiter
    assertThat(await(holder.release(key, "h")).released()).isTrue();
    assertThat(TestTiming.get(woken, WAKE)).isTrue();
    assertThat(alsoWoken).isNotDone();
    assertThat(notWoken).isNotDone();
    assertThat(await(waiter.acquire(key, "w", "", LONG)).granted()).isTrue();
    // the woken waiter's own release wakes the next
    assertThat(await(waiter.release(key, "w")).released()).isTrue();
    assertThat(TestTiming.get(alsoWoken, WAKE)).isTrue();
    assertThat(notWoken).isNotDone();

    notWoken.cancel(false);
    assertThat(waiter.releaseWaiters()).isZero();
  }

  void aPrefixWithGlobCharactersStillMatchesItsOwnChannels() {
    RedisLockBackend b =
        RedisLockBackend.builder()
            .uri(redis.uri())
            .keyPrefix("t*?[x]\\:")
            .announceEveryRelease(true)
            .build();
    backends.add(b);
    assertThat(b.layout().releasePattern()).isEqualTo("t\\*\\?\\[x\\]\\\\:{*}:released");
    awaitSubscribed(b);
    String key = key();
    await(b.acquire(key, "a", "", LONG));
    CompletableFuture<Boolean> woken = b.awaitRelease(key, LONG);
    await(b.release(key, "a"));
    assertThat(TestTiming.get(woken, WAKE)).isTrue();
  }

  @Test
  void withNotificationsOffWaitsAnswerFalseAtOnceAndNothingIsPublished() {
    RedisLockBackend off = backend(false);
    RedisLockBackend listening = subscribed();
    String key = key();
    await(off.acquire(key, "a", "", LONG));
    CompletableFuture<Boolean> other = listening.awaitRelease(key, Duration.ofMillis(300));
    assertThat(off.awaitRelease(key, LONG)).isCompletedWithValue(false);
    await(off.release(key, "a"));
    assertThat(TestTiming.get(other, WAKE)).isFalse(); // the release published nothing
    assertThat(off.releaseSignalUp()).isFalse();
  }

  @Test
  void aBareConnectionHasNoSignalButStillPublishes() {
    RedisClient client = RedisClient.create(redis.uri());
    try (StatefulRedisConnection<String, String> conn = client.connect()) {
      RedisLockBackend bare =
          RedisLockBackend.builder().connection(conn).announceEveryRelease(true).build();
      backends.add(bare);
      RedisLockBackend listening = subscribed();
      String key = key();
      await(bare.acquire(key, "a", "", LONG));
      assertThat(bare.awaitRelease(key, LONG)).isCompletedWithValue(false);
      CompletableFuture<Boolean> woken = listening.awaitRelease(key, LONG);
      await(bare.release(key, "a"));
      assertThat(TestTiming.get(woken, WAKE)).isTrue();
    } finally {
      client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
    }
  }

  @Test
  void closeEndsPendingWaitsWithFalse() {
    RedisLockBackend b = subscribed();
    CompletableFuture<Boolean> waiting = b.awaitRelease(key(), LONG);
    b.close();
    assertThat(TestTiming.get(waiting, WAKE)).isFalse();
    assertThat(b.awaitRelease(key(), LONG)).isCompletedWithValue(false);
  }

  @Test
  void argumentMessagesNameTheArgument() {
    RedisLockBackend b = backend(true);
    assertThatThrownBy(() -> b.awaitRelease("", LONG)).hasMessage("key must not be empty");
    assertThatThrownBy(() -> b.awaitRelease("k", Duration.ofMillis(-1)))
        .hasMessage("maxWait must not be negative but was PT-0.001S");
  }

  @Test
  void afterAReconnectPendingWaitsWakeAndNewWaitsWorkAgain() {
    try (RedisServerProcess own = RedisServerProcess.startNew();
        RedisLockBackend b =
            RedisLockBackend.builder().uri(own.uri()).announceEveryRelease(true).build()) {
      awaitSubscribed(b);
      String key = key();
      await(b.acquire(key, "a", "", LONG));
      CompletableFuture<Boolean> pending = b.awaitRelease(key, LONG);

      own.stop();
      TestTiming.await("the lost connection is noticed", () -> !b.releaseSignalUp(), WAKE);
      assertThat(b.awaitRelease(key, LONG)).isCompletedWithValue(false);
      assertThat(pending).isNotDone();

      own.start(); // empty: the lease is gone, and its loss announced nothing
      // re-subscribed: a release while down cannot be ruled out, so the pending wait wakes
      assertThat(TestTiming.get(pending, Duration.ofSeconds(10))).isTrue();
      TestTiming.await("re-subscribed", b::releaseSignalUp, WAKE);
      TestTiming.await(
          "the script connection is back",
          () -> {
            try {
              return await(b.acquire(key, "c", "", LONG)).granted();
            } catch (RuntimeException e) {
              return false;
            }
          },
          Duration.ofSeconds(10));
      CompletableFuture<Boolean> woken = b.awaitRelease(key, LONG);
      await(b.release(key, "c"));
      assertThat(TestTiming.get(woken, WAKE)).isTrue();
    }
  }
}
