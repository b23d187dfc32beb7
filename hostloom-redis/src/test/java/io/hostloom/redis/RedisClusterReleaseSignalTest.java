package io.hostloom.redis;

import static io.hostloom.redis.Futures.await;
import static org.assertj.core.api.Assertions.assertThat;

import io.hostloom.testkit.TestTiming;
import io.lettuce.core.cluster.RedisClusterClient;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/**
 * Release signals on a real Redis Cluster of three primaries: the backend's one {@code PSUBSCRIBE}
 * lives on a single node, yet it hears the releases of keys owned by every node, because a cluster
 * forwards classic {@code PUBLISH} messages to all nodes over its bus.
 */
class RedisClusterReleaseSignalTest {
  private static final Duration LONG = Duration.ofSeconds(60);

  @Test
  void onePatternSubscriptionOnOneNodeHearsReleasesOnEveryNode() {
    List<RedisServerProcess> nodes = RedisServerProcess.startNewCluster(3);
    RedisClusterClient client = RedisClusterClient.create(nodes.get(0).uri());
    try (RedisLockBackend holder =
            RedisLockBackend.builder().clusterClient(client).announceEveryRelease(true).build();
        RedisLockBackend waiter = RedisLockBackend.builder().clusterClient(client).build()) {
      // one lock key owned by each node
      Map<Integer, String> keyOfNode = new LinkedHashMap<>();
      for (int i = 0; keyOfNode.size() < nodes.size(); i++) {
        String key = "cluster:lock:" + i;
        int owner = ownerOf(nodes, holder.layout().leaseKey(key));
        if (!keyOfNode.containsKey(owner)) {
          assertThat(await(holder.acquire(key, "h", "", LONG)).granted()).isTrue();
          assertThat(nodes.get(owner).command("EXISTS", holder.layout().leaseKey(key)))
              .isEqualTo("1");
          keyOfNode.put(owner, key);
        }
      }

      ReleaseSignalTest.awaitSubscribed(waiter);
      int patterns = 0;
      for (RedisServerProcess node : nodes) {
        patterns += Integer.parseInt(node.command("PUBSUB", "NUMPAT"));
      }
      assertThat(patterns).as("pattern subscriptions over all nodes").isEqualTo(1);

      List<CompletableFuture<Boolean>> waits = new ArrayList<>();
      for (String key : keyOfNode.values()) {
        waits.add(waiter.awaitRelease(key, LONG));
      }
      for (String key : keyOfNode.values()) {
        assertThat(await(holder.release(key, "h")).released()).isTrue();
      }
      for (CompletableFuture<Boolean> w : waits) {
        assertThat(TestTiming.get(w, Duration.ofSeconds(5))).isTrue();
      }
    } finally {
      client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
      nodes.forEach(RedisServerProcess::close);
    }
  }

  // node i of startNewCluster(n) owns slots [16384 * i / n, 16384 * (i + 1) / n - 1]
  private static int ownerOf(List<RedisServerProcess> nodes, String redisKey) {
    int slot = Integer.parseInt(nodes.get(0).command("CLUSTER", "KEYSLOT", redisKey));
    int n = nodes.size();
    for (int i = 0; i < n; i++) {
      if (slot >= 16384 * i / n && slot <= 16384 * (i + 1) / n - 1) {
        return i;
      }
    }
    throw new IllegalStateException("no node owns slot " + slot);
  }
}
