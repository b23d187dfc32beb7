package io.hostloom.springboot;

import io.hostloom.locking.DistributedLock;
import io.hostloom.locking.LockEventListener;
import io.hostloom.locking.spi.LockBackend;
import io.hostloom.locking.time.LockClock;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;

/**
 * The core: validates every {@code hostloom.*} setting once ({@link HostLoomSettings}, failing
 * start-up with one message listing every problem), and builds the {@link DistributedLock} over the
 * chosen backend's {@link LockBackend}. The backends have their own auto-configurations ({@code
 * io.hostloom.springboot.backend.*}), each active only for its {@code hostloom.backend} value
 * ({@link io.hostloom.springboot.backend.ConditionalOnBackend}) and when its module is on the
 * classpath.
 *
 * <p>Every bean backs off when the application defines one of the same type ({@code LockClock},
 * {@code DistributedLock}, {@code LockBackend}); every {@link LockEventListener} bean receives the
 * lock's events (in {@code @Order}, through {@link LockEventListener#composite}), which is how the
 * metrics module is wired.
 */
@AutoConfiguration
@ConditionalOnClass(DistributedLock.class)
@EnableConfigurationProperties(HostLoomProperties.class)
public class HostLoomAutoConfiguration {
  /** Validates the settings before any bean is created; see {@link HostLoomSettingsRegistrar}. */
  @Bean
  static HostLoomSettingsRegistrar hostloomSettingsRegistrar() {
    return new HostLoomSettingsRegistrar();
  }

  @Bean
  @ConditionalOnMissingBean
  LockClock hostloomLockClock() {
    return LockClock.system();
  }

  /** {@code hostloom.warm-up.*}: connects the backend at start-up where it can. */
  @Bean
  @ConditionalOnProperty(
      name = "hostloom.warm-up.enabled",
      havingValue = "true",
      matchIfMissing = true)
  BackendWarmUpAtStartup hostloomBackendWarmUp(
      ObjectProvider<LockBackend> backends, HostLoomProperties properties) {
    return new BackendWarmUpAtStartup(
        () -> backends.orderedStream().toList(), properties.getWarmUp().getTimeout());
  }

  @Bean(destroyMethod = "close")
  @ConditionalOnMissingBean(DistributedLock.class)
  DistributedLock distributedLock(
      HostLoomSettings settings,
      ObjectProvider<LockBackend> backend,
      LockClock clock,
      ObjectProvider<LockEventListener> listener) {
    LockBackend b = settings.lockingOptions().enabled() ? backend.getObject() : null;
    return DistributedLock.builder(settings.lockingOptions(), b)
        .clock(clock)
        .listener(LockEventListener.composite(listener.orderedStream().toList()))
        .build();
  }
}
