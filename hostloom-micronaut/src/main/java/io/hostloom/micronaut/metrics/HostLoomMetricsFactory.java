package io.hostloom.micronaut.metrics;

import io.hostloom.micrometer.LockMetricsListener;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.observation.ObservationRegistry;
import io.micronaut.context.BeanProvider;
import io.micronaut.context.annotation.Factory;
import io.micronaut.context.annotation.Requires;
import jakarta.inject.Singleton;

/**
 * Meters ({@code hostloom.lock.*}) and observations ({@code lock.acquire}, {@code lock.execute})
 * for the lock, when {@code io.hostloom:hostloom-micrometer} is on the classpath and the context
 * has a {@link MeterRegistry} (micronaut-micrometer makes one). An {@link ObservationRegistry} bean
 * is used when there is one. The listener reaches the lock as every {@code LockEventListener} bean
 * does.
 */
@Factory
@Requires(classes = {LockMetricsListener.class, MeterRegistry.class})
public class HostLoomMetricsFactory {
  @Singleton
  @Requires(beans = MeterRegistry.class)
  LockMetricsListener hostloomLockMetricsListener(
      MeterRegistry meters, BeanProvider<ObservationRegistry> observations) {
    return new LockMetricsListener(
        meters, observations.isPresent() ? observations.get() : ObservationRegistry.NOOP);
  }
}
