package io.hostloom.redis;

import static org.assertj.core.api.Assertions.assertThat;

import io.hostloom.locking.spi.BackendHealth;
import io.hostloom.locking.spi.LockBackend;
import io.hostloom.testkit.capability.HealthProbeSuite;
import java.net.InetSocketAddress;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * {@link RedisLockBackend#checkHealth()} (one {@code PING}) against the shared real server: the
 * testkit's {@link HealthProbeSuite}, plus credentials in the URI that never reach the description.
 */
class RedisHealthProbeTest extends HealthProbeSuite {

  @Override
  protected InetSocketAddress serverAddress() {
    return new InetSocketAddress("127.0.0.1", RedisServerProcess.shared().port());
  }

  @Override
  protected LockBackend newBackend(InetSocketAddress at) {
    return backendAt("redis://" + at.getHostString() + ":" + at.getPort());
  }

  private static RedisLockBackend backendAt(String uri) {
    return RedisLockBackend.builder()
        .uri(uri)
        .healthTimeout(Duration.ofSeconds(2))
        .commandTimeout(Duration.ofSeconds(2))
        .build();
  }

  @Test
  void theHealthyDescriptionSaysReachable() {
    BackendHealth h = probe(instance(serverAddress()), serverAddress());
    assertThat(h.description()).startsWith("Redis reachable").doesNotContain("127.0.0.1");
  }

  @Test
  void credentialsInTheUriAreNeverDescribed() {
    int port = closedPort();
    try (RedisLockBackend down = backendAt("redis://user:secret@127.0.0.1:" + port)) {
      BackendHealth h = probe(down, new InetSocketAddress("127.0.0.1", port));
      assertThat(h.healthy()).isFalse();
      assertThat(h.description())
          .contains("UNAVAILABLE: RedisConnectionException")
          .doesNotContain("127.0.0.1")
          .doesNotContain("secret");
    }
  }
}
