package io.hostloom.springboot.metrics;

import io.hostloom.locking.LockEventListener;
import io.hostloom.micrometer.LockMetricsListener;
import io.hostloom.springboot.HostLoomAutoConfiguration;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.observation.ObservationRegistry;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/**
 * Meters ({@code hostloom.lock.*}) and observations ({@code lock.acquire}, {@code lock.execute})
 * for the starter's lock, when {@code io.hostloom:hostloom-micrometer} is on the classpath and the
 * application has a {@link MeterRegistry} (Spring Boot Actuator makes one). The {@link
 * ObservationRegistry} is used when there is one. An application {@link LockEventListener} bean
 * replaces this one (wrap a {@code LockMetricsListener} in it to keep the metrics).
 */
@AutoConfiguration(
    before = HostLoomAutoConfiguration.class,
    // by name, both Boot generations: Boot 4 moved these into spring-boot-micrometer-*
    afterName = {
      "org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration",
      "org.springframework.boot.micrometer.metrics.autoconfigure.export.simple.SimpleMetricsExportAutoConfiguration",
      "org.springframework.boot.micrometer.observation.autoconfigure.ObservationAutoConfiguration",
      "org.springframework.boot.actuate.autoconfigure.metrics.CompositeMeterRegistryAutoConfiguration",
      "org.springframework.boot.actuate.autoconfigure.metrics.export.simple.SimpleMetricsExportAutoConfiguration",
      "org.springframework.boot.actuate.autoconfigure.observation.ObservationAutoConfiguration"
    })
@ConditionalOnClass({LockMetricsListener.class, MeterRegistry.class})
@ConditionalOnBean(MeterRegistry.class)
public class HostLoomMetricsAutoConfiguration {

  @Bean
  @ConditionalOnMissingBean(LockEventListener.class)
  LockMetricsListener hostloomLockMetricsListener(
      MeterRegistry meters, ObjectProvider<ObservationRegistry> observations) {
    return new LockMetricsListener(
        meters, observations.getIfAvailable(() -> ObservationRegistry.NOOP));
  }
}
