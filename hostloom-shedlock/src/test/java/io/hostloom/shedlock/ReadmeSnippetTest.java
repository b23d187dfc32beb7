package io.hostloom.shedlock;

import static org.assertj.core.api.Assertions.assertThat;

import io.hostloom.locking.DistributedLock;
import io.hostloom.locking.LockingOptions;
import io.hostloom.locking.memory.InMemoryLockBackend;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import net.javacrumbs.shedlock.core.LockAssert;
import net.javacrumbs.shedlock.core.LockConfiguration;
import net.javacrumbs.shedlock.core.LockExtender;
import net.javacrumbs.shedlock.core.LockProvider;
import net.javacrumbs.shedlock.core.SimpleLock;
import net.javacrumbs.shedlock.spring.annotation.EnableSchedulerLock;
import net.javacrumbs.shedlock.spring.annotation.SchedulerLock;
import org.junit.jupiter.api.Test;
import org.springframework.context.annotation.AnnotationConfigApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The README's snippet as written: {@code @EnableSchedulerLock} + {@code shedlock-spring} make
 * {@code @SchedulerLock} take effect on a {@link HostLoomLockProvider}, and the extend call keeps
 * (or, with {@code Duration.ZERO}, cancels) {@code lockAtLeastFor}.
 */
class ReadmeSnippetTest {

  @Configuration
  @EnableSchedulerLock(defaultLockAtMostFor = "PT10M")
  static class SchedulingConfig {
    @Bean
    DistributedLock locks() {
      return DistributedLock.create(LockingOptions.of("billing"), new InMemoryLockBackend());
    }

    @Bean
    LockProvider lockProvider(DistributedLock locks) {
      return new HostLoomLockProvider(locks);
    }

    @Bean
    Jobs jobs() {
      return new Jobs();
    }
  }

  static class Jobs {
    private final AtomicInteger runs = new AtomicInteger();

    public int runs() { // a method: the bean is a proxy, its fields are not the target's
      return runs.get();
    }

    @SchedulerLock(name = "invoice-run", lockAtMostFor = "PT2M", lockAtLeastFor = "PT30S")
    public void settleDue() {
      LockAssert.assertLocked();
      runs.incrementAndGet();
      LockExtender.extendActiveLock(Duration.ofMinutes(2), Duration.ofSeconds(30));
    }

    @SchedulerLock(name = "cancelled-at-least", lockAtMostFor = "PT2M", lockAtLeastFor = "PT30S")
    public void extendsWithZero() {
      runs.incrementAndGet();
      LockExtender.extendActiveLock(Duration.ofMinutes(2), Duration.ZERO);
    }
  }

  private static Optional<SimpleLock> take(LockProvider p, String name) {
    return p.lock(new LockConfiguration(Instant.now(), name, Duration.ofMinutes(1), Duration.ZERO));
  }

  @Test
  void schedulerLockTakesEffectAndTheExtendKeepsOrCancelsLockAtLeastFor() {
    try (AnnotationConfigApplicationContext ctx =
        new AnnotationConfigApplicationContext(SchedulingConfig.class)) {
      Jobs jobs = ctx.getBean(Jobs.class);
      LockProvider provider = ctx.getBean(LockProvider.class);

      jobs.settleDue();
      assertThat(jobs.runs()).isEqualTo(1);
      jobs.settleDue(); // lockAtLeastFor (30 s from the extension) still holds the name: skipped
      assertThat(jobs.runs()).isEqualTo(1);
      assertThat(take(provider, "invoice-run")).isEmpty();

      jobs.extendsWithZero();
      jobs.extendsWithZero(); // the zero at-least of the extension released it at once
      assertThat(jobs.runs()).isEqualTo(3);
      assertThat(take(provider, "cancelled-at-least")).isPresent();
    }
  }
}
