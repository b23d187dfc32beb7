package io.hostloom.micronaut;

import static org.assertj.core.api.Assertions.assertThat;

import io.hostloom.locking.DistributedLock;
import io.hostloom.locking.LockEventListener;
import io.hostloom.locking.spi.LockBackend;
import io.hostloom.redis.RedisServerProcess;
import io.micronaut.context.ApplicationContext;
import io.micronaut.context.annotation.Requires;
import jakarta.inject.Provider;
import jakarta.inject.Singleton;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The context closes the lock first and the backend it owns after it. */
class ShutdownOrderTest {
  /** Asks the backend for a record when the lock announces it is closing. */
  @Singleton
  @Requires(property = "test.shutdown-probe", value = "true")
  static class BackendAtLockClose implements LockEventListener {
    final CompletableFuture<Boolean> backendAnswered = new CompletableFuture<>();
    private final Provider<LockBackend> backend;

    BackendAtLockClose(Provider<LockBackend> backend) {
      this.backend = backend;
    }

    @Override
    public void lockClosed(LockLifecycle event) {
      try {
        backend.get().read("mn-shutdown:lock:probe").get(5, TimeUnit.SECONDS);
        backendAnswered.complete(true);
      } catch (Exception | Error e) {
        backendAnswered.complete(false);
      }
    }
  }

  @Test
  void theLockClosesWhileItsRedisBackendStillAnswers() throws Exception {
    BackendAtLockClose probe;
    try (ApplicationContext c =
        ApplicationContext.run(
            Map.of(
                "test.shutdown-probe", "true",
                "hostloom.backend", "redis",
                "hostloom.redis.uri", RedisServerProcess.shared().uri(),
                "hostloom.locking.namespace", "mn-shutdown"))) {
      String ran = c.getBean(DistributedLock.class).executeWithLock("probe", h -> "ran");
      assertThat(ran).isEqualTo("ran");
      probe = c.getBean(BackendAtLockClose.class);
    }
    assertThat(probe.backendAnswered.get(10, TimeUnit.SECONDS)).isTrue();
  }
}
