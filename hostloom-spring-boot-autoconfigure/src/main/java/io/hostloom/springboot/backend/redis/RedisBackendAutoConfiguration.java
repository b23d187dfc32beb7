package io.hostloom.springboot.backend.redis;

import io.hostloom.locking.spi.LockBackend;
import io.hostloom.redis.RedisLockBackend;
import io.hostloom.springboot.HostLoomAutoConfiguration;
import io.hostloom.springboot.HostLoomSettings;
import io.hostloom.springboot.HostLoomWopiAutoConfiguration;
import io.hostloom.springboot.backend.ConditionalOnBackend;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;

/**
 * {@code hostloom.backend=redis}: a {@link RedisLockBackend} on {@code hostloom.redis.uri}, owning
 * its Lettuce client (closed with the context), changed by every {@link
 * RedisLockBackendBuilderCustomizer} bean. Active only when {@code io.hostloom:hostloom-redis} is
 * on the classpath. To reuse a client of your own, use a customizer ({@code b.client(...)}) or
 * define a {@code LockBackend} bean.
 */
@AutoConfiguration(
    after = HostLoomAutoConfiguration.class,
    before = HostLoomWopiAutoConfiguration.class)
@ConditionalOnClass(RedisLockBackend.class)
@ConditionalOnBackend("redis")
@EnableConfigurationProperties(RedisBackendProperties.class)
public class RedisBackendAutoConfiguration {

  @Bean(name = HostLoomSettings.BACKEND_BEAN, destroyMethod = "close")
  @ConditionalOnMissingBean(LockBackend.class)
  RedisLockBackend hostloomLockBackend(
      HostLoomSettings settings,
      RedisBackendProperties redis,
      ObjectProvider<RedisLockBackendBuilderCustomizer> customizers) {
    RedisLockBackend.Builder b =
        RedisLockBackend.builder()
            .uri(redis.getUri().strip())
            .commandTimeout(redis.getCommandTimeout())
            .healthTimeout(redis.getHealthTimeout())
            .fenceRetention(redis.getFenceRetention())
            .keyPrefix(redis.getKeyPrefix());
    customizers.orderedStream().forEach(c -> c.customize(b));
    return b.build();
  }
}
