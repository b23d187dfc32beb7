package io.hostloom.redis;

import static io.hostloom.redis.Futures.await;
import static org.assertj.core.api.Assertions.assertThat;

import io.hostloom.testkit.TestTiming;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Waiters are woken by the release script's PUBLISH; polling remains the fallback. */
class ReleaseNotificationTest {
  private static final Duration LONG = Duration.ofSeconds(60);
  private static final Duration WAKE = Duration.ofSeconds(5);

  private final RedisServerProcess redis = RedisServerProcess.shared();
  private final List<RedisLockBackend> backends = new ArrayList<>();

  private RedisLockBackend backend(boolean notifications) {
    RedisLockBackend b =
        RedisLockBackend.builder().uri(redis.uri()).releaseNotifications(notifications).build();
    backends.add(b);
    return b;
  }

  @AfterEach
  void close() {
    backends.forEach(RedisLockBackend::close);
  }

  private static String key() {
    return "notify:lock:" + UUID.randomUUID();
  }

  private int subscribers(RedisLockBackend b, String key) {
    String reply = redis.command("PUBSUB", "NUMSUB", b.layout().releaseChannel(key));
    return Integer.parseInt(reply.substring(reply.lastIndexOf('\n') + 1));
  }

  private void awaitSubscribers(RedisLockBackend b, String key, int n) {
    TestTiming.await(
        n + " subscriber(s) on the release channel",
        () -> subscribers(b, key) == n,
        Duration.ofSeconds(5));
  }

  @Test
  void aReleaseWakesTheWaiterOfThatKeyOnly() {
    RedisLockBackend holder = backend(true);
    RedisLockBackend waiter = backend(true);
    String key = key();
    String other = key();
    await(holder.acquire(key, "h", "", LONG));
    await(holder.acquire(other, "h", "", LONG));

    CompletableFuture<Void> woken = waiter.nextRelease(key);
    CompletableFuture<Void> notWoken = waiter.nextRelease(other);
    awaitSubscribers(waiter, key, 1);
    awaitSubscribers(waiter, other, 1);
    assertThat(woken).isNotDone();

    assertThat(await(holder.release(key, "h"))).isTrue();
    TestTiming.get(woken, WAKE);
    assertThat(notWoken).isNotDone();
    assertThat(await(waiter.acquire(key, "w", "", LONG)).granted()).isTrue();

    notWoken.cancel(false);
    awaitSubscribers(waiter, key, 0);
    awaitSubscribers(waiter, other, 0);
  }

  @Test
  void replaceWakesWaitersToo() {
    RedisLockBackend b = backend(true);
    String key = key();
    await(b.acquire(key, "a", "", LONG));
    CompletableFuture<Void> woken = b.nextRelease(key);
    awaitSubscribers(b, key, 1);
    assertThat(await(b.replace(key, "a", "b", "", LONG)).replaced()).isTrue();
    TestTiming.get(woken, WAKE);
  }

  @Test
  void manyWaitersShareOneSubscriptionWhichEndsWithTheLastOne() {
    RedisLockBackend b = backend(true);
    String key = key();
    CompletableFuture<Void> first = b.nextRelease(key);
    CompletableFuture<Void> second = b.nextRelease(key);
    awaitSubscribers(b, key, 1);
    first.cancel(false);
    assertThat(subscribers(b, key)).isEqualTo(1);
    second.cancel(false);
    awaitSubscribers(b, key, 0);
  }

  @Test
  void awaitReleaseAnswersTrueOnAReleaseAndFalseAfterMax() {
    RedisLockBackend b = backend(true);
    String key = key();
    await(b.acquire(key, "a", "", LONG));
    assertThat(TestTiming.get(b.awaitRelease(key, Duration.ofMillis(50)), WAKE)).isFalse();
    awaitSubscribers(b, key, 0);

    CompletableFuture<Boolean> released = b.awaitRelease(key, Duration.ofSeconds(30));
    awaitSubscribers(b, key, 1);
    await(b.release(key, "a"));
    assertThat(TestTiming.get(released, WAKE)).isTrue();
    awaitSubscribers(b, key, 0);
  }

  @Test
  void withNotificationsOffWaitersPollOnly() {
    RedisLockBackend b = backend(false);
    String key = key();
    await(b.acquire(key, "a", "", LONG));
    CompletableFuture<Boolean> wait = b.awaitRelease(key, Duration.ofMillis(300));
    await(b.release(key, "a"));
    assertThat(TestTiming.get(wait, WAKE)).isFalse();
    assertThat(subscribers(b, key)).isZero();
  }

  @Test
  void aBareConnectionHasNoNotificationsButNeverFailsAWaiter() {
    RedisClient client = RedisClient.create(redis.uri());
    try (StatefulRedisConnection<String, String> conn = client.connect()) {
      RedisLockBackend b = RedisLockBackend.builder().connection(conn).build();
      backends.add(b);
      String key = key();
      await(b.acquire(key, "a", "", LONG));
      CompletableFuture<Boolean> wait = b.awaitRelease(key, Duration.ofMillis(200));
      await(b.release(key, "a"));
      assertThat(TestTiming.get(wait, WAKE)).isFalse();
    } finally {
      client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
    }
  }

  @Test
  void closeWakesWaiters() {
    RedisLockBackend b = backend(true);
    CompletableFuture<Void> waiting = b.nextRelease(key());
    b.close();
    TestTiming.get(waiting, WAKE);
  }
}
