package io.hostloom.springboot.backend.etcd;

import io.hostloom.etcd.EtcdLockBackend;
import io.hostloom.locking.spi.LockBackend;
import io.hostloom.springboot.HostloomAutoConfiguration;
import io.hostloom.springboot.HostloomSettings;
import io.hostloom.springboot.HostloomWopiAutoConfiguration;
import io.hostloom.springboot.backend.ConditionalOnBackend;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;

/**
 * {@code hostloom.backend=etcd}: an {@link EtcdLockBackend} on {@code hostloom.etcd.endpoints},
 * owning its jetcd client (closed with the context), changed by every {@link
 * EtcdLockBackendBuilderCustomizer} bean. Active only when {@code io.hostloom:hostloom-etcd} is on
 * the classpath. Its health probe (a quorum read) feeds the starter's health contributor; its
 * release watch wakes waiters.
 */
@AutoConfiguration(
    after = HostloomAutoConfiguration.class,
    before = HostloomWopiAutoConfiguration.class)
@ConditionalOnClass(EtcdLockBackend.class)
@ConditionalOnBackend("etcd")
@EnableConfigurationProperties(EtcdBackendProperties.class)
public class EtcdBackendAutoConfiguration {

  @Bean(name = HostloomSettings.BACKEND_BEAN, destroyMethod = "close")
  @ConditionalOnMissingBean(LockBackend.class)
  EtcdLockBackend hostloomLockBackend(
      EtcdBackendProperties etcd, ObjectProvider<EtcdLockBackendBuilderCustomizer> customizers) {
    EtcdLockBackend.Builder b =
        EtcdLockBackend.builder()
            .endpoints(
                etcd.getEndpoints().stream()
                    .filter(s -> s != null && !s.isBlank())
                    .map(String::strip)
                    .toArray(String[]::new))
            .commandTimeout(etcd.getCommandTimeout())
            .healthTimeout(etcd.getHealthTimeout())
            .keyPrefix(etcd.getKeyPrefix());
    customizers.orderedStream().forEach(c -> c.customize(b));
    return b.build();
  }
}
