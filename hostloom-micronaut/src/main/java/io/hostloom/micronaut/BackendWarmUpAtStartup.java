package io.hostloom.micronaut;

import io.hostloom.locking.spi.LockBackend;
import io.hostloom.locking.spi.support.StartupWarmUp;
import io.micronaut.context.BeanProvider;
import io.micronaut.context.annotation.Requires;
import io.micronaut.context.event.ApplicationEventListener;
import io.micronaut.context.event.StartupEvent;
import io.micronaut.context.exceptions.ConfigurationException;
import jakarta.inject.Singleton;
import java.time.Duration;
import java.util.List;

/**
 * {@code hostloom.warm-up.*}: when the context has started (before an embedded server takes
 * traffic), warms up every {@link LockBackend} bean that can, as {@link StartupWarmUp} does; a
 * failure or a timeout is logged and start-up goes on.
 */
@Singleton
@Requires(property = "hostloom.warm-up.enabled", notEquals = "false")
final class BackendWarmUpAtStartup implements ApplicationEventListener<StartupEvent> {
  private final BeanProvider<LockBackend> backends;
  private final Duration timeout;

  /**
   * @throws ConfigurationException when {@code hostloom.warm-up.timeout} is negative
   */
  BackendWarmUpAtStartup(BeanProvider<LockBackend> backends, WarmUpConfiguration config) {
    this.timeout =
        config.getTimeout().orElse(Duration.ofSeconds(WarmUpConfiguration.DEFAULT_TIMEOUT_SECONDS));
    List<String> problems = StartupWarmUp.problems(timeout);
    if (!problems.isEmpty()) {
      throw new ConfigurationException(problems.get(0));
    }
    this.backends = backends;
  }

  @Override
  public void onApplicationEvent(StartupEvent event) {
    var unused = StartupWarmUp.warmUp(backends.stream().toList(), timeout);
  }
}
