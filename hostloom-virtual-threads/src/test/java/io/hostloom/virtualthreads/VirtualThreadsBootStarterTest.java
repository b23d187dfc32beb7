package io.hostloom.virtualthreads;

import static org.assertj.core.api.Assertions.assertThat;

import io.hostloom.locking.DistributedLock;
import io.hostloom.locking.LockHandle;
import io.hostloom.redis.RedisServerProcess;
import io.hostloom.testkit.TestTiming;
import java.time.Duration;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.scheduling.annotation.EnableScheduling;
import org.springframework.scheduling.annotation.Scheduled;

/**
 * The Boot 4 starter with {@code spring.threads.virtual.enabled=true} over a real Redis: Boot's
 * scheduler runs the {@code @Scheduled} job on a virtual thread, which takes the lock, releases it
 * (the step that fails in other libraries when unlock comes from a virtual thread) and takes it
 * again through {@code executeWithLock}; the key is free at once for another application context,
 * not only after the lease expires; no virtual thread is pinned meanwhile.
 */
class VirtualThreadsBootStarterTest {

  /** What the scheduled job saw, on its thread. */
  record Run(boolean virtual, boolean heldInside, boolean heldAfterClose, long token, long again) {}

  @SpringBootConfiguration
  @EnableAutoConfiguration
  @EnableScheduling
  static class App {
    @Bean
    Job job(DistributedLock lock) {
      return new Job(lock);
    }
  }

  /** The second instance: the same auto-configuration, no job of its own. */
  @SpringBootConfiguration
  @EnableAutoConfiguration
  static class Other {}

  static final class Job {
    final CompletableFuture<Run> first = new CompletableFuture<>();
    private final DistributedLock lock;

    Job(DistributedLock lock) {
      this.lock = lock;
    }

    @Scheduled(fixedDelay = 50)
    void run() {
      if (first.isDone()) {
        return;
      }
      try {
        LockHandle h = lock.acquire("vt-job");
        boolean heldInside = h.isHeld();
        h.close(); // unlock on the virtual thread
        long again = lock.executeWithLock("vt-job", g -> g.fencingToken());
        first.complete(
            new Run(
                Thread.currentThread().isVirtual(),
                heldInside,
                h.isHeld(),
                h.fencingToken(),
                again));
      } catch (RuntimeException e) {
        first.completeExceptionally(e);
      }
    }
  }

  @Test
  void aScheduledJobOnAVirtualThreadTakesAndReleasesTheLock() throws Exception {
    String[] props = {
      "spring.threads.virtual.enabled=true",
      "hostloom.backend=redis",
      "hostloom.redis.uri=" + RedisServerProcess.shared().uri(),
      "hostloom.locking.namespace=vt-" + UUID.randomUUID().toString().substring(0, 8)
    };
    PinnedEventCheck pinning = PinnedEventCheck.start();
    try (ConfigurableApplicationContext app = start(App.class, props);
        ConfigurableApplicationContext other = start(Other.class, props)) {
      Run run = TestTiming.get(app.getBean(Job.class).first, Duration.ofSeconds(30));

      assertThat(run.virtual()).as("the scheduled job ran on a virtual thread").isTrue();
      assertThat(run.heldInside()).isTrue();
      assertThat(run.heldAfterClose()).isFalse();
      assertThat(run.again()).isGreaterThan(run.token());
      Optional<LockHandle> next = other.getBean(DistributedLock.class).tryAcquire("vt-job");
      assertThat(next).as("released on the backend, not left to expire").isPresent();
      assertThat(next.get().fencingToken()).isGreaterThan(run.again());
      next.get().close();
    }
    pinning.assertNone("in a Boot application with spring.threads.virtual.enabled");
  }

  private static ConfigurableApplicationContext start(Class<?> app, String... properties) {
    return new SpringApplicationBuilder(app)
        .web(WebApplicationType.NONE)
        .properties(properties)
        .run();
  }
}
