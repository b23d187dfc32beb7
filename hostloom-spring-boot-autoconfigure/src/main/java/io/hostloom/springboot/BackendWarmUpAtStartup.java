package io.hostloom.springboot;

import io.hostloom.locking.spi.LockBackend;
import io.hostloom.locking.spi.support.StartupWarmUp;
import java.time.Duration;
import java.util.List;
import java.util.function.Supplier;
import org.springframework.beans.factory.SmartInitializingSingleton;

/**
 * Warms up every {@link LockBackend} bean that can once all singletons exist, before the
 * application takes traffic, as {@link StartupWarmUp} does: all of them at once, waiting at most
 * {@code hostloom.warm-up.timeout} in total; a failure or a timeout is logged and start-up goes on.
 */
final class BackendWarmUpAtStartup implements SmartInitializingSingleton {
  private final Supplier<List<LockBackend>> backends;
  private final Duration timeout;

  BackendWarmUpAtStartup(Supplier<List<LockBackend>> backends, Duration timeout) {
    List<String> problems = StartupWarmUp.problems(timeout);
    if (!problems.isEmpty()) {
      throw HostLoomConfigurationException.of(problems);
    }
    this.backends = backends;
    this.timeout = timeout;
  }

  @Override
  public void afterSingletonsInstantiated() {
    var unused = StartupWarmUp.warmUp(backends.get(), timeout);
  }
}
