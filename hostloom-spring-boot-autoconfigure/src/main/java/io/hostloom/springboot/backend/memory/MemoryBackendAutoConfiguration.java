package io.hostloom.springboot.backend.memory;

import io.hostloom.locking.memory.InMemoryLockBackend;
import io.hostloom.locking.spi.LockBackend;
import io.hostloom.locking.time.LockClock;
import io.hostloom.springboot.HostloomAutoConfiguration;
import io.hostloom.springboot.HostloomSettings;
import io.hostloom.springboot.HostloomWopiAutoConfiguration;
import io.hostloom.springboot.backend.ConditionalOnBackend;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/**
 * {@code hostloom.backend=memory}: an {@link InMemoryLockBackend} on the lock clock. Locks live in
 * this JVM only: for tests and single-instance deployments.
 */
@AutoConfiguration(
    after = HostloomAutoConfiguration.class,
    before = HostloomWopiAutoConfiguration.class)
@ConditionalOnBackend("memory")
public class MemoryBackendAutoConfiguration {

  @Bean(HostloomSettings.BACKEND_BEAN)
  @ConditionalOnMissingBean(LockBackend.class)
  InMemoryLockBackend hostloomLockBackend(HostloomSettings settings, LockClock clock) {
    return new InMemoryLockBackend(clock);
  }
}
