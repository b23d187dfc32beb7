package io.hostloom.springboot.semaphore;

import io.hostloom.locking.DistributedLock;
import io.hostloom.locking.LockEventListener;
import io.hostloom.locking.semaphore.DistributedSemaphores;
import io.hostloom.locking.spi.LockBackend;
import io.hostloom.locking.time.LockClock;
import io.hostloom.micrometer.SemaphoreMetrics;
import io.hostloom.springboot.HostLoomAutoConfiguration;
import io.hostloom.springboot.HostLoomSettings;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * A {@link DistributedSemaphores} factory over the starter's backend, with the lock's {@code
 * hostloom.locking.*} settings, clock and event listeners (so the lock's meters count permits too).
 * Semaphores have no settings of their own: the name and permit count are given in code ({@code
 * semaphores.semaphore("exports", 3)}). With {@code hostloom-micrometer} and a {@link
 * MeterRegistry}, the {@code hostloom.semaphore.permits.held} gauge ({@link SemaphoreMetrics}).
 * Backs off when the application defines its own factory.
 */
@AutoConfiguration(
    after = HostLoomAutoConfiguration.class,
    afterName = {
      "org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration",
      "org.springframework.boot.micrometer.metrics.autoconfigure.export.simple.SimpleMetricsExportAutoConfiguration",
      "org.springframework.boot.actuate.autoconfigure.metrics.CompositeMeterRegistryAutoConfiguration",
      "org.springframework.boot.actuate.autoconfigure.metrics.export.simple.SimpleMetricsExportAutoConfiguration"
    })
@ConditionalOnBean(DistributedLock.class)
public class HostLoomSemaphoreAutoConfiguration {

  @Bean(destroyMethod = "close")
  @ConditionalOnMissingBean
  DistributedSemaphores distributedSemaphores(
      HostLoomSettings settings,
      ObjectProvider<LockBackend> backend,
      LockClock clock,
      ObjectProvider<LockEventListener> listener) {
    LockBackend b = settings.lockingOptions().enabled() ? backend.getObject() : null;
    return DistributedSemaphores.builder(settings.lockingOptions(), b)
        .clock(clock)
        .listener(LockEventListener.composite(listener.orderedStream().toList()))
        .build();
  }

  /** The permits-held gauge when Micrometer and hostloom-micrometer are there. */
  @Configuration(proxyBeanMethods = false)
  @ConditionalOnClass({SemaphoreMetrics.class, MeterRegistry.class})
  @ConditionalOnBean(MeterRegistry.class)
  static class Metrics {
    @Bean
    Gauge hostloomSemaphorePermitsHeld(MeterRegistry meters, DistributedSemaphores semaphores) {
      return SemaphoreMetrics.bind(meters, semaphores);
    }
  }
}
