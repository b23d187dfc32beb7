package io.hostloom.springboot.rwlock;

import io.hostloom.locking.LockEventListener;
import io.hostloom.locking.rwlock.DistributedReadWriteLock;
import io.hostloom.locking.rwlock.ReadWriteHandle.Mode;
import io.hostloom.locking.spi.LockBackend;
import io.hostloom.locking.time.LockClock;
import io.hostloom.micrometer.ReadWriteLockMetrics;
import io.hostloom.springboot.HostLoomAutoConfiguration;
import io.hostloom.springboot.HostLoomSettings;
import io.hostloom.springboot.HostLoomWopiAutoConfiguration;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * A {@link DistributedReadWriteLock} over the starter's backend, with the lock's namespace and
 * options ({@code hostloom.locking.*}), clock and event listeners, and the default number of reader
 * slots. Not created when locking is disabled (a reader-writer lock has no single-instance mode) or
 * when the application defines its own (e.g. with other reader slots). With {@code
 * hostloom-micrometer} and a {@link MeterRegistry}, the {@code hostloom.rwlock.held} gauges (mode
 * {@code read} and {@code write}, {@link ReadWriteLockMetrics}).
 */
// after the WOPI configuration, which every backend configuration comes before
@AutoConfiguration(after = {HostLoomAutoConfiguration.class, HostLoomWopiAutoConfiguration.class})
@ConditionalOnClass(DistributedReadWriteLock.class)
@ConditionalOnBean(LockBackend.class)
@ConditionalOnProperty(
    prefix = "hostloom.locking",
    name = "enabled",
    havingValue = "true",
    matchIfMissing = true)
public class HostLoomReadWriteLockAutoConfiguration {
  @Bean(destroyMethod = "close")
  @ConditionalOnMissingBean
  DistributedReadWriteLock distributedReadWriteLock(
      HostLoomSettings settings,
      LockBackend backend,
      ObjectProvider<LockClock> clock,
      ObjectProvider<LockEventListener> listener) {
    return DistributedReadWriteLock.builder(settings.lockingOptions(), backend)
        .clock(clock.getIfUnique(LockClock::system))
        .listener(LockEventListener.composite(listener.orderedStream().toList()))
        .build();
  }

  /** The held gauges when Micrometer and hostloom-micrometer are there. */
  @Configuration(proxyBeanMethods = false)
  @ConditionalOnClass({ReadWriteLockMetrics.class, MeterRegistry.class})
  @ConditionalOnBean(MeterRegistry.class)
  static class Metrics {
    @Bean
    Gauge hostloomReadWriteLockReadsHeld(
        MeterRegistry meters, DistributedReadWriteLock lock, HostLoomSettings settings) {
      return ReadWriteLockMetrics.gauge(
          meters, lock, settings.lockingOptions().namespace(), Mode.READ);
    }

    @Bean
    Gauge hostloomReadWriteLockWriteHeld(
        MeterRegistry meters, DistributedReadWriteLock lock, HostLoomSettings settings) {
      return ReadWriteLockMetrics.gauge(
          meters, lock, settings.lockingOptions().namespace(), Mode.WRITE);
    }
  }
}
