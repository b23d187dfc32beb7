package io.hostloom.micronaut;

import io.micronaut.context.annotation.ConfigurationProperties;
import java.time.Duration;
import java.util.Optional;

/**
 * {@code hostloom.warm-up.*}, under the Spring Boot starter's names: whether start-up warms up the
 * {@code LockBackend} when it can (connects, loads scripts, starts subscriptions, prepares
 * statements) so the first lock costs what every later one does, and how long start-up waits for
 * it. A failed or unfinished warm-up is logged and start-up goes on; the first operation then
 * connects.
 */
@ConfigurationProperties("hostloom.warm-up")
public interface WarmUpConfiguration {
  /** The wait when {@code timeout} is not set: {@value #DEFAULT_TIMEOUT_SECONDS} s. */
  long DEFAULT_TIMEOUT_SECONDS = 10;

  /** Whether start-up warms up the backend (default true). */
  Optional<Boolean> getEnabled();

  /** How long start-up waits for the warm-up before it goes on without it (default 10 s). */
  Optional<Duration> getTimeout();
}
