package io.hostloom.springboot;

import io.hostloom.locking.spi.BackendWarmUp;
import io.hostloom.locking.spi.LockBackend;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.SmartInitializingSingleton;

/**
 * Warms up every {@link LockBackend} bean that can ({@link BackendWarmUp}) once all singletons
 * exist, before the application takes traffic: all of them at once, waiting at most {@code
 * hostloom.warm-up.timeout} in total. A failure or a timeout is logged as a warning and start-up
 * goes on, since a lock server that is down at start-up may be up by the first lock (which then
 * connects, as without a warm-up).
 */
final class BackendWarmUpAtStartup implements SmartInitializingSingleton {
  private static final Logger log = LoggerFactory.getLogger(BackendWarmUpAtStartup.class);

  private final Supplier<List<LockBackend>> backends;
  private final Duration timeout;

  BackendWarmUpAtStartup(Supplier<List<LockBackend>> backends, Duration timeout) {
    if (timeout == null || timeout.isNegative()) {
      throw HostLoomConfigurationException.of(
          List.of("hostloom.warm-up.timeout must be zero or positive but was " + timeout));
    }
    this.backends = backends;
    this.timeout = timeout;
  }

  @Override
  public void afterSingletonsInstantiated() {
    long deadline = System.nanoTime() + timeout.toNanos();
    List<Started> started =
        backends.get().stream()
            .filter(BackendWarmUp.class::isInstance)
            .map(b -> new Started(b, ((BackendWarmUp) b).warmUp()))
            .toList();
    for (Started s : started) {
      long left = Math.max(0, deadline - System.nanoTime());
      try {
        s.warmUp().get(left, TimeUnit.NANOSECONDS);
        log.debug("HostLoom: {} backend warmed up", s.backend().name());
      } catch (TimeoutException e) {
        log.warn(
            "HostLoom: the {} backend's warm-up did not finish within hostloom.warm-up.timeout"
                + " ({}); start-up goes on and the first lock waits for the connection",
            s.backend().name(),
            timeout);
      } catch (ExecutionException e) {
        log.warn(
            "HostLoom: the {} backend's warm-up failed; start-up goes on and the first lock"
                + " connects: {}",
            s.backend().name(),
            e.getCause() == null ? e.toString() : e.getCause().toString());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
  }

  private record Started(LockBackend backend, CompletableFuture<Void> warmUp) {}
}
