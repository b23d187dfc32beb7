package io.hostloom.springboot.store;

import io.hostloom.locking.spi.LockBackend;
import io.hostloom.redis.RedisLockBackend;
import io.hostloom.springboot.HostloomAutoConfiguration;
import io.hostloom.springboot.HostloomProperties;
import io.hostloom.springboot.HostloomSettings;
import io.hostloom.springboot.HostloomWopiAutoConfiguration;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;

/**
 * {@code hostloom.store=redis}: a {@link RedisLockBackend} on {@code hostloom.redis.uri}, owning
 * its Lettuce client (closed with the context). Active only when {@code io.hostloom:hostloom-redis}
 * is on the classpath. To reuse a client of your own, define a {@code LockBackend} bean built with
 * {@code RedisLockBackend.builder().client(...)} instead.
 */
@AutoConfiguration(
    after = HostloomAutoConfiguration.class,
    before = HostloomWopiAutoConfiguration.class)
@ConditionalOnClass(RedisLockBackend.class)
@ConditionalOnProperty(prefix = "hostloom", name = "store", havingValue = "redis")
public class RedisStoreAutoConfiguration {

  @Bean(name = HostloomSettings.BACKEND_BEAN, destroyMethod = "close")
  @ConditionalOnMissingBean(LockBackend.class)
  RedisLockBackend hostloomLockBackend(HostloomSettings settings) {
    HostloomProperties.Redis redis = settings.properties().getRedis();
    return RedisLockBackend.builder()
        .uri(redis.getUri().strip())
        .commandTimeout(redis.getCommandTimeout())
        .build();
  }
}
