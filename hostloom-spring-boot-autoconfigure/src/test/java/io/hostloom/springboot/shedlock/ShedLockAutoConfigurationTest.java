package io.hostloom.springboot.shedlock;

import static org.assertj.core.api.Assertions.assertThat;

import io.hostloom.shedlock.HostLoomLockProvider;
import io.hostloom.springboot.HostLoomAutoConfiguration;
import io.hostloom.springboot.backend.memory.MemoryBackendAutoConfiguration;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import net.javacrumbs.shedlock.core.LockConfiguration;
import net.javacrumbs.shedlock.core.LockProvider;
import net.javacrumbs.shedlock.core.SimpleLock;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

class ShedLockAutoConfigurationTest {
  final ApplicationContextRunner runner =
      new ApplicationContextRunner()
          .withConfiguration(
              AutoConfigurations.of(
                  HostLoomAutoConfiguration.class,
                  MemoryBackendAutoConfiguration.class,
                  HostLoomShedLockAutoConfiguration.class))
          .withPropertyValues("hostloom.locking.namespace=app", "hostloom.backend=memory");

  private static LockConfiguration job() {
    return new LockConfiguration(Instant.now(), "nightly", Duration.ofMinutes(1), Duration.ZERO);
  }

  @Test
  void aProviderOnTheStarterBackendThatExcludes() {
    runner.run(
        ctx -> {
          LockProvider provider = ctx.getBean(LockProvider.class);
          assertThat(provider).isInstanceOf(HostLoomLockProvider.class);
          Optional<SimpleLock> lock = provider.lock(job());
          assertThat(lock).isPresent();
          assertThat(provider.lock(job())).isEmpty();
          lock.get().unlock();
          assertThat(provider.lock(job())).isPresent();
        });
  }

  @Test
  void backsOffForTheApplicationsOwnProvider() {
    LockProvider own = config -> Optional.empty();
    runner
        .withBean(LockProvider.class, () -> own)
        .run(ctx -> assertThat(ctx.getBean(LockProvider.class)).isSameAs(own));
  }

  @Test
  void nothingWithoutShedLock() {
    runner
        .withClassLoader(new FilteredClassLoader("net.javacrumbs.shedlock"))
        .run(ctx -> assertThat(ctx).hasNotFailed().doesNotHaveBean(HostLoomLockProvider.class));
  }
}
