package io.hostloom.redis;

import static io.hostloom.redis.Futures.await;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.hostloom.locking.spi.AcquireOutcome;
import io.hostloom.locking.spi.LeaseRecord;
import io.lettuce.core.cluster.RedisClusterClient;
import java.time.Duration;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The compatibility layouts on a real server: the key each old library uses, a value it wrote read
 * as a live foreign lease, HostLoom's own value and counter on those keys. The exclusion against
 * the libraries themselves is shown by the adapter modules' rolling-migration tests.
 */
class RedisCompatLayoutTest {
  private static final Duration LONG = Duration.ofSeconds(60);
  private final RedisServerProcess redis = RedisServerProcess.shared();
  private RedisLockBackend backend;

  @AfterEach
  void close() {
    if (backend != null) {
      backend.close();
    }
  }

  private RedisLockBackend backend(RedisKeyLayout layout) {
    backend = RedisLockBackend.builder().uri(redis.uri()).layout(layout).build();
    return backend;
  }

  @Test
  void theLayoutsNameTheOldLibrariesKeys() {
    RedisKeyLayout shedLock = RedisKeyLayout.shedLock("job-lock", "default", "jobs:lock:shedlock:");
    assertThat(shedLock.leaseKey("jobs:lock:shedlock:report")).isEqualTo("job-lock:default:report");
    assertThat(shedLock.fenceKey("jobs:lock:shedlock:report"))
        .isEqualTo("job-lock:default:report:hostloom-fence");
    assertThat(shedLock.waitersKey("jobs:lock:shedlock:report"))
        .isEqualTo("job-lock:default:report:hostloom-w");
    assertThat(shedLock.releaseChannel("jobs:lock:shedlock:report"))
        .isEqualTo("job-lock:default:report:hostloom-released");
    assertThat(shedLock.releasePattern()).isEqualTo("job-lock:default:*:hostloom-released");
    RedisKeyLayout spring = RedisKeyLayout.springIntegration("jobs", "jobs:lock:");
    assertThat(spring.leaseKey("jobs:lock:report")).isEqualTo("jobs:report");
    assertThat(spring.compatible()).isTrue();
    assertThat(RedisKeyLayout.withPrefix("hl:").compatible()).isFalse();
    assertThatThrownBy(() -> spring.leaseKey("other:report"))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> spring.leaseKey("jobs:lock:"))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> RedisKeyLayout.springIntegration("", ""))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void aValueTheOldLibraryWroteIsAForeignLiveLeaseWithoutToken() {
    RedisLockBackend b = backend(RedisKeyLayout.springIntegration("jobs", "jobs:lock:"));
    String name = "foreign-" + UUID.randomUUID();
    String clientId = UUID.randomUUID().toString(); // what RedisLockRegistry writes
    redis.command("SET", "jobs:" + name, clientId, "PX", "60000");

    AcquireOutcome refused = await(b.acquire("jobs:lock:" + name, "hostloom-owner", "", LONG));
    assertThat(refused.granted()).isFalse();
    LeaseRecord holder = refused.holder().orElseThrow();
    assertThat(holder.owner()).isEqualTo(clientId);
    assertThat(holder.data()).isEmpty();
    assertThat(holder.fencingToken()).isZero();
    assertThat(await(b.release("jobs:lock:" + name, "hostloom-owner")).released()).isFalse();
    assertThat(await(b.extend("jobs:lock:" + name, "hostloom-owner", LONG)).extended()).isFalse();
    assertThat(await(b.read("jobs:lock:" + name)).orElseThrow().owner()).isEqualTo(clientId);
    assertThat(redis.command("GET", "jobs:" + name)).isEqualTo(clientId); // left alone
  }

  @Test
  void hostLoomWritesItsOwnValueAndCounterOnTheOldKey() {
    RedisLockBackend b = backend(RedisKeyLayout.shedLock("job-lock", "default", "jobs:lock:"));
    String name = "own-" + UUID.randomUUID();
    AcquireOutcome first = await(b.acquire("jobs:lock:" + name, "owner-1", "data", LONG));
    assertThat(first.granted()).isTrue();
    assertThat(redis.command("GET", "job-lock:default:" + name))
        .isEqualTo(first.fencingToken() + "|7|owner-1data");
    assertThat(await(b.release("jobs:lock:" + name, "owner-1")).released()).isTrue();
    assertThat(redis.command("EXISTS", "job-lock:default:" + name)).isEqualTo("0");
    AcquireOutcome second = await(b.acquire("jobs:lock:" + name, "owner-2", "", LONG));
    assertThat(second.fencingToken()).isGreaterThan(first.fencingToken());
  }

  @Test
  void aClusterSourceIsRefused() {
    RedisClusterClient cluster = RedisClusterClient.create("redis://127.0.0.1:1");
    try {
      assertThatThrownBy(
              () ->
                  RedisLockBackend.builder()
                      .clusterClient(cluster)
                      .layout(RedisKeyLayout.springIntegration("jobs", ""))
                      .build())
          .isInstanceOf(IllegalStateException.class)
          .hasMessageContaining("standalone or Sentinel");
    } finally {
      cluster.shutdown();
    }
  }
}
