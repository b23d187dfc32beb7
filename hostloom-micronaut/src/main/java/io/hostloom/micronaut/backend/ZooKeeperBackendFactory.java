package io.hostloom.micronaut.backend;

import io.hostloom.zookeeper.ZooKeeperLockBackend;
import io.micronaut.context.annotation.Bean;
import io.micronaut.context.annotation.Factory;
import io.micronaut.context.annotation.Requires;
import jakarta.inject.Singleton;

/**
 * {@code hostloom.backend=zookeeper} with {@code io.hostloom:hostloom-zookeeper} on the classpath:
 * a {@link ZooKeeperLockBackend} on {@code hostloom.zookeeper.connect-string}, owning its session
 * (closed with the context, after the lock).
 */
@Factory
@Requires(property = "hostloom.backend", value = "zookeeper")
@Requires(classes = ZooKeeperLockBackend.class)
public class ZooKeeperBackendFactory {
  @Singleton
  @Bean(preDestroy = "close")
  ZooKeeperLockBackend hostloomLockBackend(ZooKeeperConfiguration zk) {
    ZooKeeperLockBackend.Builder b =
        ZooKeeperLockBackend.builder()
            .connectString(
                RequiredSetting.of(
                    zk.getConnectString(),
                    "hostloom.zookeeper.connect-string",
                    "zookeeper",
                    "localhost:2181"));
    zk.getRootPath().ifPresent(b::rootPath);
    zk.getSessionTimeout().ifPresent(b::sessionTimeout);
    zk.getCommandTimeout().ifPresent(b::commandTimeout);
    zk.getHealthTimeout().ifPresent(b::healthTimeout);
    zk.getReleaseSignal().ifPresent(b::releaseSignal);
    return b.build();
  }
}
