package io.hostloom.redis;

import static io.hostloom.redis.Futures.await;
import static org.assertj.core.api.Assertions.assertThat;

import io.hostloom.locking.spi.LockBackend;
import io.hostloom.testkit.LockBackendConformanceSuite;
import io.hostloom.testkit.TestTiming;
import io.lettuce.core.cluster.RedisClusterClient;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/**
 * The backend contract on a real (single-node) Redis Cluster through Lettuce's cluster client: the
 * server enforces the cluster rules, so a script whose keys spanned two slots would fail with
 * {@code CROSSSLOT} (the native semaphore's scripts included).
 */
class RedisClusterConformanceTest extends LockBackendConformanceSuite {
  private static RedisServerProcess cluster;
  private static RedisClusterClient client;

  private static synchronized RedisClusterClient client() {
    if (client == null) {
      cluster = RedisServerProcess.startNewCluster();
      client = RedisClusterClient.create(cluster.uri());
    }
    return client;
  }

  @AfterAll
  static synchronized void stopCluster() {
    if (client != null) {
      client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
      cluster.close();
      client = null;
    }
  }

  @Override
  protected LockBackend newBackend() {
    return RedisLockBackend.builder().clusterClient(client()).build();
  }

  @Test
  void crossSlotKeysWouldBeRejectedSoTheHashTagsMatter() {
    String reply =
        cluster.command("EVAL", "return redis.call('MGET', KEYS[1], KEYS[2])", "2", "a", "b");
    assertThat(reply).startsWith("CROSSSLOT");
  }

  @Test
  void releaseNotificationsWorkOnTheCluster() {
    RedisLockBackend b = (RedisLockBackend) backend;
    String key = key("notify");
    await(b.acquire(key, "a", "", longLease()));
    ReleaseSignalTest.awaitSubscribed(b);
    CompletableFuture<Boolean> woken = b.awaitRelease(key, Duration.ofSeconds(30));
    // the refused attempt sets the key's waiter flag (same slot), so the release publishes
    assertThat(await(b.acquire(key, "w", "", longLease())).granted()).isFalse();
    await(b.release(key, "a"));
    assertThat(TestTiming.get(woken, Duration.ofSeconds(5))).isTrue();
  }

  @Test
  void theNativeSemaphoreKeepsItsKeysInOneSlot() {
    LockBackend view = ((RedisLockBackend) backend).permitView(2).orElseThrow();
    String key = key("sem");
    assertThat(await(view.acquire(key, "a", "", longLease())).granted()).isTrue();
    assertThat(await(view.acquire(key, "b", "", longLease())).granted()).isTrue();
    assertThat(await(view.acquire(key, "c", "", longLease())).granted()).isFalse();
    assertThat(await(view.extend(key, "a", longLease())).extended()).isTrue();
    assertThat(await(view.read(key))).isPresent();
    assertThat(await(view.release(key, "a")).released()).isTrue();
    assertThat(await(view.release(key, "b")).released()).isTrue();
  }
}
