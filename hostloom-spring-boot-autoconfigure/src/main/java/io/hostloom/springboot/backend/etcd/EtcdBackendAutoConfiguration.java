package io.hostloom.springboot.backend.etcd;

import io.hostloom.etcd.EtcdLockBackend;
import io.hostloom.locking.spi.LockBackend;
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
 * {@code hostloom.backend=etcd}: an {@link EtcdLockBackend} on {@code hostloom.etcd.endpoints},
 * owning its jetcd client (closed with the context), changed by every {@link
 * EtcdLockBackendBuilderCustomizer} bean. Active only when {@code io.hostloom:hostloom-etcd} is on
 * the classpath. Its health probe (a quorum read) feeds the starter's health contributor; its
 * release watch wakes waiters.
 */
@AutoConfiguration(
    after = HostLoomAutoConfiguration.class,
    before = HostLoomWopiAutoConfiguration.class)
@ConditionalOnClass(EtcdLockBackend.class)
@ConditionalOnBackend("etcd")
@EnableConfigurationProperties(EtcdBackendProperties.class)
public class EtcdBackendAutoConfiguration {

  @Bean(name = HostLoomSettings.BACKEND_BEAN, destroyMethod = "close")
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
