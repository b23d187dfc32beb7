package io.hostloom.redis;

import static io.hostloom.redis.Futures.await;
import static org.assertj.core.api.Assertions.assertThat;

import io.hostloom.testkit.TestTiming;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Measures the hand-off latency (holder's release sent, to the waiter's grant received) with
 * release notifications and with plain polling, on a real server. A waiter retries every {@link
 * #STEP} (the kernel's default first retry delay), or earlier when notified. Prints the numbers;
 * asserts only that every hand-off happened (tests never assert timings).
 */
class HandOffLatencyTest {
  private static final Duration STEP = Duration.ofMillis(50);
  private static final Duration LEASE = Duration.ofSeconds(30);
  private static final int ROUNDS = 30;

  private final RedisServerProcess redis = RedisServerProcess.shared();

  @Test
  void handOffWithAndWithoutNotifications() throws Exception {
    String notified = measure(true);
    String polled = measure(false);
    System.out.println(
        "[redis hand-off] retry step "
            + STEP.toMillis()
            + " ms, "
            + ROUNDS
            + " rounds each: notified "
            + notified
            + "; polling "
            + polled);
  }

  private String measure(boolean notifications) throws Exception {
    List<Double> millis = new ArrayList<>();
    try (RedisLockBackend holder = backend(notifications);
        RedisLockBackend waiter = backend(notifications)) {
      for (int round = 0; round < ROUNDS; round++) {
        String key = "handoff:lock:" + UUID.randomUUID();
        assertThat(await(holder.acquire(key, "holder", "", LEASE)).granted()).isTrue();
        CountDownLatch waiting = new CountDownLatch(1);
        CompletableFuture<Long> grantedAt =
            CompletableFuture.supplyAsync(() -> waitFor(waiter, key, waiting));
        assertThat(waiting.await(10, TimeUnit.SECONDS)).isTrue();
        // release at a random point of the waiter's retry step
        TestTiming.pass(
            Duration.ofMillis(ThreadLocalRandom.current().nextLong(5, STEP.toMillis() + 5)));
        long released = System.nanoTime();
        assertThat(await(holder.release(key, "holder"))).isTrue();
        long granted = TestTiming.get(grantedAt, Duration.ofSeconds(10));
        millis.add((granted - released) / 1e6);
        await(waiter.release(key, "waiter"));
      }
    }
    Collections.sort(millis);
    return String.format(
        Locale.ROOT,
        "median %.2f ms, p90 %.2f ms, max %.2f ms",
        millis.get(millis.size() / 2),
        millis.get((int) Math.ceil(millis.size() * 0.9) - 1),
        millis.get(millis.size() - 1));
  }

  // the waiter's retry loop: acquire, else wait for a release or one retry step
  private static long waitFor(RedisLockBackend waiter, String key, CountDownLatch waiting) {
    while (true) {
      if (await(waiter.acquire(key, "waiter", "", LEASE)).granted()) {
        return System.nanoTime();
      }
      CompletableFuture<Boolean> wake = waiter.awaitRelease(key, STEP);
      waiting.countDown();
      TestTiming.get(wake, Duration.ofSeconds(10));
    }
  }

  private RedisLockBackend backend(boolean notifications) {
    return RedisLockBackend.builder().uri(redis.uri()).releaseNotifications(notifications).build();
  }
}
