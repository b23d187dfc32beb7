package io.hostloom.quarkus.internal;

import io.hostloom.micrometer.LockMetricsListener;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.observation.ObservationRegistry;
import jakarta.enterprise.inject.Instance;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

/**
 * Meters {@code hostloom.lock.*} in quarkus-micrometer's registry (registered only with
 * quarkus-micrometer and io.hostloom:hostloom-micrometer): hostloom-micrometer's {@link
 * LockMetricsListener}, which the lock receives as one of its event listeners. Observations go to
 * the application's {@link ObservationRegistry} when it has one.
 */
@Singleton
public class HostLoomMetrics {
  @Produces
  @Singleton
  LockMetricsListener hostloomLockMetricsListener(
      MeterRegistry meters, Instance<ObservationRegistry> observations) {
    return new LockMetricsListener(
        meters, observations.isResolvable() ? observations.get() : ObservationRegistry.NOOP);
  }
}
