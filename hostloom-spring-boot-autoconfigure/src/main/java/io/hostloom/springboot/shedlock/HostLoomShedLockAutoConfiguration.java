package io.hostloom.springboot.shedlock;

import io.hostloom.locking.DistributedLock;
import io.hostloom.shedlock.HostLoomLockProvider;
import io.hostloom.springboot.HostLoomAutoConfiguration;
import net.javacrumbs.shedlock.core.LockProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/**
 * ShedLock on the starter's lock, when {@code io.hostloom:hostloom-shedlock} and {@code
 * shedlock-core} are on the classpath: a {@link HostLoomLockProvider} over the starter's {@link
 * DistributedLock} (keys {@code <hostloom.locking.namespace>:lock:shedlock:<name>}) unless the
 * application defines a {@link LockProvider}. {@code @SchedulerLock} still needs {@code
 * shedlock-spring} and {@code @EnableSchedulerLock} (see the hostloom-shedlock README).
 */
@AutoConfiguration(
    after = HostLoomAutoConfiguration.class,
    afterName = {
      "io.hostloom.springboot.backend.memory.MemoryBackendAutoConfiguration",
      "io.hostloom.springboot.backend.redis.RedisBackendAutoConfiguration",
      "io.hostloom.springboot.backend.azure.AzureBackendAutoConfiguration",
      "io.hostloom.springboot.backend.postgres.PostgresBackendAutoConfiguration",
      "io.hostloom.springboot.backend.etcd.EtcdBackendAutoConfiguration",
      "io.hostloom.springboot.backend.zookeeper.ZooKeeperBackendAutoConfiguration",
      "io.hostloom.springboot.backend.mariadb.MariaDbBackendAutoConfiguration"
    })
@ConditionalOnClass({LockProvider.class, HostLoomLockProvider.class})
@ConditionalOnBean(DistributedLock.class)
public class HostLoomShedLockAutoConfiguration {

  @Bean
  @ConditionalOnMissingBean(LockProvider.class)
  HostLoomLockProvider hostloomShedLockProvider(DistributedLock lock) {
    return new HostLoomLockProvider(lock);
  }
}
