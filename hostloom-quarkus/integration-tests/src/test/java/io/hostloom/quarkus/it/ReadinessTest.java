package io.hostloom.quarkus.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.smallrye.health.SmallRyeHealth;
import io.smallrye.health.SmallRyeHealthReporter;
import jakarta.inject.Inject;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The hostloom readiness check follows the real redis-server: UP, DOWN when it stops, UP again. */
@QuarkusTest
@QuarkusTestResource(RedisServerResource.class)
class ReadinessTest {
  @Inject SmallRyeHealthReporter health;

  @Test
  void readinessFollowsTheServer() throws InterruptedException {
    assertThat(readiness()).contains("\"name\":\"hostloom\"").contains("\"status\":\"UP\"");
    RedisServerResource.server().stop();
    try {
      SmallRyeHealth down = health.getReadiness();
      assertThat(down.isDown()).isTrue();
      assertThat(down.getPayload().toString()).contains("\"backend\":\"redis\"");
    } finally {
      RedisServerResource.server().start();
    }
    awaitUp();
  }

  /** A polling wait, bounded: Lettuce reconnects on its own after the restart. */
  private void awaitUp() throws InterruptedException {
    long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (health.getReadiness().isDown()) {
      assertThat(System.nanoTime()).as("readiness UP again").isLessThan(end);
      TimeUnit.MILLISECONDS.sleep(50);
    }
  }

  private String readiness() {
    return health.getReadiness().getPayload().toString();
  }
}
