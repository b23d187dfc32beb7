package io.hostloom.springboot;

import io.hostloom.locking.spi.LockBackend;
import io.hostloom.locking.time.LockClock;
import io.hostloom.wopi.WopiLockComparer;
import io.hostloom.wopi.WopiLockProtocol;
import io.hostloom.wopi.WopiLockProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/**
 * WOPI locks over the lock backend: a {@link WopiLockComparer} from {@code
 * hostloom.wopi.lock-comparer}, a {@link WopiLockProvider} with {@code hostloom.wopi.lock-expiry}
 * and a {@link WopiLockProtocol} (the framework-neutral WOPI lock rules) on top.
 *
 * <p>Each bean backs off when the application defines one of the same type. That is how a custom
 * comparer is plugged in: define a {@code WopiLockComparer} bean and the provider uses it.
 */
@AutoConfiguration(after = HostLoomAutoConfiguration.class)
@ConditionalOnClass(WopiLockProvider.class)
public class HostLoomWopiAutoConfiguration {

  @Bean(HostLoomSettings.COMPARER_BEAN)
  @ConditionalOnMissingBean
  WopiLockComparer hostloomWopiLockComparer(HostLoomSettings settings) {
    return settings.comparer().orElseThrow();
  }

  @Bean
  @ConditionalOnMissingBean
  @ConditionalOnBean(LockBackend.class)
  WopiLockProvider wopiLockProvider(
      HostLoomSettings settings, LockBackend backend, WopiLockComparer comparer, LockClock clock) {
    return WopiLockProvider.builder(backend)
        .comparer(comparer)
        .expiry(settings.wopiExpiry())
        .keyPrefix(settings.wopiKeyPrefix())
        .clock(clock)
        .build();
  }

  @Bean
  @ConditionalOnMissingBean
  @ConditionalOnBean(WopiLockProvider.class)
  WopiLockProtocol wopiLockProtocol(WopiLockProvider provider) {
    return new WopiLockProtocol(provider);
  }
}
