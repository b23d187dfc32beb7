package io.hostloom.locking.spi.support;

import io.hostloom.locking.spi.BackendWarmUp;
import io.hostloom.locking.spi.LockBackend;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a framework integration does with {@code hostloom.warm-up.*} at start-up, written once for
 * the Spring Boot starter, the Quarkus extension and the Micronaut module: warms up every backend
 * that can ({@link BackendWarmUp}), all at once, waiting at most {@code timeout} in total. A
 * failure or a timeout is logged as a warning and start-up goes on, since a lock server that is
 * down at start-up may be up by the first lock (which then connects, as without a warm-up).
 */
public final class StartupWarmUp {
  private static final Logger log = LoggerFactory.getLogger(StartupWarmUp.class);

  private StartupWarmUp() {}

  /**
   * Checks a {@code hostloom.warm-up.timeout} value.
   *
   * @return the problem in one sentence naming the property, or empty when {@code timeout} is zero
   *     or positive
   */
  public static List<String> problems(Duration timeout) {
    return timeout == null || timeout.isNegative()
        ? List.of("hostloom.warm-up.timeout must be zero or positive but was " + timeout)
        : List.of();
  }

  /**
   * Starts the warm-up of each of {@code backends} that can, then waits for them within {@code
   * timeout} in total. Never throws for a failed or unfinished warm-up (each is logged); an
   * interrupt ends the wait early and stays set.
   *
   * @return the backends whose warm-up completed within the timeout
   * @throws IllegalArgumentException when {@code timeout} is negative
   */
  public static List<LockBackend> warmUp(List<? extends LockBackend> backends, Duration timeout) {
    Objects.requireNonNull(backends, "backends");
    List<String> problems = problems(timeout);
    if (!problems.isEmpty()) {
      throw new IllegalArgumentException(problems.get(0));
    }
    long deadline = System.nanoTime() + timeout.toNanos();
    List<Started> started = new ArrayList<>();
    for (LockBackend b : backends) {
      if (b instanceof BackendWarmUp w) {
        started.add(new Started(b, w.warmUp()));
      }
    }
    List<LockBackend> warm = new ArrayList<>();
    for (Started s : started) {
      long left = Math.max(0, deadline - System.nanoTime());
      try {
        s.warmUp().get(left, TimeUnit.NANOSECONDS);
        warm.add(s.backend());
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
        break;
      }
    }
    return List.copyOf(warm);
  }

  private record Started(LockBackend backend, CompletableFuture<Void> warmUp) {}
}
