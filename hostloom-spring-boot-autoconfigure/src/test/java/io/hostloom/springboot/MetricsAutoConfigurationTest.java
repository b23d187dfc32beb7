package io.hostloom.springboot;

import static io.hostloom.springboot.HostLoomAutoConfigurationTest.ALL;
import static org.assertj.core.api.Assertions.assertThat;

import io.hostloom.locking.DistributedLock;
import io.hostloom.locking.LockEventListener;
import io.hostloom.micrometer.LockMetricsListener;
import io.hostloom.springboot.metrics.HostLoomMetricsAutoConfiguration;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.observation.tck.TestObservationRegistry;
import io.micrometer.observation.tck.TestObservationRegistryAssert;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/** Micrometer and Observation wiring of the starter's lock. */
class MetricsAutoConfigurationTest {
  final ApplicationContextRunner runner =
      new ApplicationContextRunner()
          .withConfiguration(ALL)
          .withConfiguration(AutoConfigurations.of(HostLoomMetricsAutoConfiguration.class))
          .withPropertyValues("hostloom.locking.namespace=metered", "hostloom.backend=memory");

  @Test
  void theLockFeedsMetersAndObservationsWhenARegistryExists() throws Exception {
    TestObservationRegistry observations = TestObservationRegistry.create();
    runner
        .withBean(MeterRegistry.class, SimpleMeterRegistry::new)
        .withBean(ObservationRegistry.class, () -> observations)
        .run(
            ctx -> {
              assertThat(ctx).hasSingleBean(LockMetricsListener.class);
              DistributedLock lock = ctx.getBean(DistributedLock.class);
              lock.runWithLock("invoice-42", h -> {});
              MeterRegistry meters = ctx.getBean(MeterRegistry.class);
              assertThat(
                      meters
                          .get(LockMetricsListener.ACQUIRE_DURATION)
                          .tag(LockMetricsListener.NAMESPACE_TAG, "metered")
                          .timer()
                          .count())
                  .isEqualTo(1);
              assertThat(meters.get(LockMetricsListener.HOLD_DURATION).timer().count())
                  .isEqualTo(1);
              TestObservationRegistryAssert.assertThat(observations)
                  .hasObservationWithNameEqualTo(LockMetricsListener.EXECUTE_OBSERVATION)
                  .that()
                  .hasBeenStopped();
              TestObservationRegistryAssert.assertThat(observations)
                  .hasObservationWithNameEqualTo(LockMetricsListener.ACQUIRE_OBSERVATION)
                  .that()
                  .hasBeenStopped();
            });
  }

  @Test
  void withoutAMeterRegistryThereIsNoListener() {
    runner.run(ctx -> assertThat(ctx).doesNotHaveBean(LockEventListener.class));
  }

  @Test
  void withoutTheMicrometerModuleThereIsNoListener() {
    runner
        .withClassLoader(new FilteredClassLoader(LockMetricsListener.class))
        .withBean(MeterRegistry.class, SimpleMeterRegistry::new)
        .run(
            ctx -> {
              assertThat(ctx).hasNotFailed();
              assertThat(ctx).doesNotHaveBean(LockEventListener.class);
            });
  }

  @Test
  void anApplicationListenerReplacesTheMetricsListener() {
    LockEventListener mine = new LockEventListener() {};
    runner
        .withBean(MeterRegistry.class, SimpleMeterRegistry::new)
        .withBean(LockEventListener.class, () -> mine)
        .run(
            ctx -> {
              assertThat(ctx).doesNotHaveBean(LockMetricsListener.class);
              assertThat(ctx.getBean(LockEventListener.class)).isSameAs(mine);
            });
  }
}
