package io.hostloom.springboot.backend.memory;

import io.hostloom.locking.memory.InMemoryLockBackend;
import io.hostloom.locking.spi.LockBackend;
import io.hostloom.locking.time.LockClock;
import io.hostloom.springboot.HostLoomAutoConfiguration;
import io.hostloom.springboot.HostLoomSettings;
import io.hostloom.springboot.HostLoomWopiAutoConfiguration;
import io.hostloom.springboot.backend.ConditionalOnBackend;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/**
 * {@code hostloom.backend=memory}: an {@link InMemoryLockBackend} on the lock clock. Locks live in
 * this JVM only: for tests and single-instance deployments.
 */
@AutoConfiguration(
    after = HostLoomAutoConfiguration.class,
    before = HostLoomWopiAutoConfiguration.class)
@ConditionalOnBackend("memory")
public class MemoryBackendAutoConfiguration {

  @Bean(HostLoomSettings.BACKEND_BEAN)
  @ConditionalOnMissingBean(LockBackend.class)
  InMemoryLockBackend hostloomLockBackend(HostLoomSettings settings, LockClock clock) {
    return new InMemoryLockBackend(clock);
  }
}
