package io.hostloom.micronaut;

import static org.assertj.core.api.Assertions.assertThat;

import io.hostloom.micronaut.health.HostLoomHealthIndicator;
import io.hostloom.redis.RedisServerProcess;
import io.micronaut.health.HealthStatus;
import io.micronaut.management.health.indicator.HealthResult;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import io.micronaut.test.support.TestPropertyProvider;
import jakarta.inject.Inject;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/** Health over a redis-server of its own, which the test stops. */
@MicronautTest
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class RedisHealthDownTest implements TestPropertyProvider {
  private RedisServerProcess server;

  @Inject HostLoomHealthIndicator health;

  @Override
  public Map<String, String> getProperties() {
    server = RedisServerProcess.startNew();
    return Map.of(
        "hostloom.backend", "redis",
        "hostloom.redis.uri", server.uri(),
        "hostloom.redis.health-timeout", "1s",
        "hostloom.redis.command-timeout", "1s",
        "hostloom.locking.namespace", "mn-health");
  }

  @AfterAll
  void stopServer() {
    server.close();
  }

  @Test
  void upWhileRedisAnswersAndDownOnceItIsGone() {
    assertThat(status().getStatus()).isEqualTo(HealthStatus.UP);
    server.close();
    HealthResult down = status();
    assertThat(down.getStatus()).isEqualTo(HealthStatus.DOWN);
    assertThat(Health.details(down)).containsKey("probe");
  }

  private HealthResult status() {
    return Health.check(health);
  }
}
