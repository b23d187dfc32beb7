package io.hostloom.springboot.backend.zookeeper;

import io.hostloom.locking.spi.LockBackend;
import io.hostloom.springboot.HostLoomAutoConfiguration;
import io.hostloom.springboot.HostLoomSettings;
import io.hostloom.springboot.HostLoomWopiAutoConfiguration;
import io.hostloom.springboot.backend.ConditionalOnBackend;
import io.hostloom.zookeeper.ZooKeeperLockBackend;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;

/**
 * {@code hostloom.backend=zookeeper}: a {@link ZooKeeperLockBackend} on {@code
 * hostloom.zookeeper.connect-string}, owning its session (closed with the context), changed by
 * every {@link ZooKeeperLockBackendBuilderCustomizer} bean. Active only when {@code
 * io.hostloom:hostloom-zookeeper} is on the classpath. Health comes from the backend's own probe.
 */
@AutoConfiguration(
    after = HostLoomAutoConfiguration.class,
    before = HostLoomWopiAutoConfiguration.class)
@ConditionalOnClass(ZooKeeperLockBackend.class)
@ConditionalOnBackend("zookeeper")
@EnableConfigurationProperties(ZooKeeperBackendProperties.class)
public class ZooKeeperBackendAutoConfiguration {

  @Bean(name = HostLoomSettings.BACKEND_BEAN, destroyMethod = "close")
  @ConditionalOnMissingBean(LockBackend.class)
  ZooKeeperLockBackend hostloomLockBackend(
      ZooKeeperBackendProperties zk,
      ObjectProvider<ZooKeeperLockBackendBuilderCustomizer> customizers) {
    ZooKeeperLockBackend.Builder b =
        ZooKeeperLockBackend.builder()
            .connectString(zk.getConnectString().strip())
            .rootPath(zk.getRootPath())
            .sessionTimeout(zk.getSessionTimeout())
            .commandTimeout(zk.getCommandTimeout())
            .healthTimeout(zk.getHealthTimeout())
            .releaseSignal(zk.isReleaseSignal());
    customizers.orderedStream().forEach(c -> c.customize(b));
    return b.build();
  }
}
