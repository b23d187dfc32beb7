package io.hostloom.quarkus.internal;

import io.hostloom.etcd.EtcdLockBackend;
import io.hostloom.locking.spi.LockBackend;
import io.hostloom.quarkus.HostLoomConfig;
import java.util.List;

/** {@code hostloom.backend=etcd}: an {@link EtcdLockBackend} owning its jetcd client. */
final class EtcdFactory {
  private EtcdFactory() {}

  static LockBackend create(HostLoomConfig.Etcd c) {
    String[] endpoints =
        c.endpoints().orElse(List.of()).stream()
            .filter(s -> s != null && !s.isBlank())
            .map(String::strip)
            .toArray(String[]::new);
    if (endpoints.length == 0) {
      throw HostLoomConfigurationException.of(
          List.of("hostloom.etcd.endpoints is required with this backend, e.g. http://etcd:2379"));
    }
    EtcdLockBackend.Builder b = EtcdLockBackend.builder().endpoints(endpoints);
    c.commandTimeout().ifPresent(b::commandTimeout);
    c.healthTimeout().ifPresent(b::healthTimeout);
    c.keyPrefix().ifPresent(b::keyPrefix);
    return b.build();
  }
}
