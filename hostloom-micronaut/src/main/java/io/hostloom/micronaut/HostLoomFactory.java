package io.hostloom.micronaut;

import io.hostloom.locking.DistributedLock;
import io.hostloom.locking.LockEventListener;
import io.hostloom.locking.LockRetrySpec;
import io.hostloom.locking.LockingOptions;
import io.hostloom.locking.spi.LockBackend;
import io.micronaut.context.BeanProvider;
import io.micronaut.context.annotation.Bean;
import io.micronaut.context.annotation.Factory;
import io.micronaut.context.exceptions.ConfigurationException;
import io.micronaut.core.convert.ConversionService;
import jakarta.inject.Singleton;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * The {@link DistributedLock} bean, over the one {@link LockBackend} bean (a backend factory's from
 * {@code hostloom.backend}, or the application's own), closed when the context stops. Every {@link
 * LockEventListener} bean (in {@code @Order}) receives the lock's events, which is how the
 * Micrometer metrics are wired. With {@code hostloom.locking.enabled=false} the lock runs actions
 * without a backend.
 */
@Factory
public class HostLoomFactory {
  /** The {@code hostloom.backend} values this module has backend factories for. */
  static final List<String> BACKENDS = List.of("memory", "redis", "etcd", "zookeeper");

  /**
   * @throws ConfigurationException listing every problem of {@code hostloom.locking.*}, or naming
   *     the missing backend
   */
  @Singleton
  @Bean(preDestroy = "close")
  DistributedLock distributedLock(
      HostLoomConfiguration config,
      LockingConfiguration locking,
      BeanProvider<LockBackend> backend,
      List<LockEventListener> listeners,
      ConversionService conversion) {
    LockingOptions options = options(locking, durations(conversion));
    LockBackend b = null;
    if (options.enabled()) {
      if (!backend.isPresent()) {
        throw new ConfigurationException(missingBackend(config));
      }
      b = backend.get();
    }
    return DistributedLock.builder(options, b)
        .listener(LockEventListener.composite(listeners))
        .build();
  }

  /** Micronaut's duration forms ({@code 50ms}, {@code 2s}, {@code PT2S}) for the retry spec. */
  static Function<String, Duration> durations(ConversionService conversion) {
    return text ->
        conversion
            .convert(text, Duration.class)
            .orElseThrow(() -> new IllegalArgumentException("'" + text + "' is not a duration"));
  }

  private static String missingBackend(HostLoomConfiguration config) {
    String choices = String.join(", ", BACKENDS);
    return config
        .getBackend()
        .map(
            name ->
                BACKENDS.contains(name)
                    ? HostLoomConfiguration.BACKEND
                        + "="
                        + name
                        + " needs io.hostloom:hostloom-"
                        + name
                        + " on the classpath (add it as a dependency)"
                    : HostLoomConfiguration.BACKEND
                        + " must be one of "
                        + choices
                        + " but was '"
                        + name
                        + "'")
        .orElse(
            HostLoomConfiguration.BACKEND
                + " is not set: choose where locks live with "
                + HostLoomConfiguration.BACKEND
                + "="
                + choices
                + " (memory for a single instance or tests), define a LockBackend bean, or set"
                + " hostloom.locking.enabled=false");
  }

  /**
   * The options {@code c} describes, checked by the kernel's own rules.
   *
   * @throws ConfigurationException listing every problem at once (one sentence each, naming the
   *     property)
   */
  static LockingOptions options(LockingConfiguration c, Function<String, Duration> durations) {
    List<String> problems = new ArrayList<>();
    LockingOptions.Builder b = LockingOptions.builder();
    c.getNamespace().ifPresent(b::namespace);
    c.getEnabled().ifPresent(b::enabled);
    c.getDefaultLease().ifPresent(b::defaultLease);
    c.getMaxLease().ifPresent(b::maxLease);
    c.getMaxHold().ifPresent(b::maxHold);
    c.getStrictMaxHold().ifPresent(b::strictMaxHold);
    c.getWakeOnRelease().ifPresent(b::wakeOnRelease);
    c.getAutoExtend().ifPresent(b::autoExtend);
    c.getDetectReentrancy().ifPresent(b::detectReentrancy);
    c.getMaxKeyLength().ifPresent(b::maxKeyLength);
    try {
      c.getRetry().map(spec -> LockRetrySpec.parse(spec, durations)).ifPresent(b::retry);
    } catch (IllegalArgumentException e) {
      problems.add(e.getMessage());
    }
    LockingOptions options = b.build();
    problems.addAll(options.validate());
    if (!problems.isEmpty()) {
      throw new ConfigurationException(
          "HostLoom is misconfigured:\n - " + String.join("\n - ", problems));
    }
    return options;
  }
}
