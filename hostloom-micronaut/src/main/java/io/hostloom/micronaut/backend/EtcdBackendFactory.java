package io.hostloom.micronaut.backend;

import io.hostloom.etcd.EtcdLockBackend;
import io.micronaut.context.annotation.Bean;
import io.micronaut.context.annotation.Factory;
import io.micronaut.context.annotation.Requires;
import jakarta.inject.Singleton;
import java.util.List;

/**
 * {@code hostloom.backend=etcd} with {@code io.hostloom:hostloom-etcd} on the classpath: an {@link
 * EtcdLockBackend} on {@code hostloom.etcd.endpoints}, owning its jetcd client (closed with the
 * context, after the lock).
 */
@Factory
@Requires(property = "hostloom.backend", value = "etcd")
@Requires(classes = EtcdLockBackend.class)
public class EtcdBackendFactory {
  @Singleton
  @Bean(preDestroy = "close")
  EtcdLockBackend hostloomLockBackend(EtcdConfiguration etcd) {
    String[] endpoints =
        etcd.getEndpoints().orElse(List.of()).stream()
            .filter(s -> s != null && !s.isBlank())
            .map(String::strip)
            .toArray(String[]::new);
    if (endpoints.length == 0) {
      throw RequiredSetting.missing("hostloom.etcd.endpoints", "etcd", "http://localhost:2379");
    }
    EtcdLockBackend.Builder b = EtcdLockBackend.builder().endpoints(endpoints);
    etcd.getCommandTimeout().ifPresent(b::commandTimeout);
    etcd.getHealthTimeout().ifPresent(b::healthTimeout);
    etcd.getKeyPrefix().ifPresent(b::keyPrefix);
    return b.build();
  }
}
