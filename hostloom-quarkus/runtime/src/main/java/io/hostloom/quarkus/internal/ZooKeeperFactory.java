package io.hostloom.quarkus.internal;

import io.hostloom.locking.spi.LockBackend;
import io.hostloom.quarkus.HostLoomConfig;
import io.hostloom.zookeeper.ZooKeeperLockBackend;

/** {@code hostloom.backend=zookeeper}: a {@link ZooKeeperLockBackend} owning its session. */
final class ZooKeeperFactory {
  private ZooKeeperFactory() {}

  static LockBackend create(HostLoomConfig.ZooKeeper c) {
    ZooKeeperLockBackend.Builder b =
        ZooKeeperLockBackend.builder()
            .connectString(
                Backends.required(
                    c.connectString(), "hostloom.zookeeper.connect-string", "zk-1:2181,zk-2:2181"))
            .releaseSignal(c.releaseSignal());
    c.rootPath().ifPresent(b::rootPath);
    c.sessionTimeout().ifPresent(b::sessionTimeout);
    c.commandTimeout().ifPresent(b::commandTimeout);
    c.healthTimeout().ifPresent(b::healthTimeout);
    return b.build();
  }
}
