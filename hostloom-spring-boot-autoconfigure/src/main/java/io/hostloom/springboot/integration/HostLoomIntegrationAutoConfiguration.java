package io.hostloom.springboot.integration;

import io.hostloom.integration.HostLoomLeaderInitiator;
import io.hostloom.integration.HostLoomLockRegistry;
import io.hostloom.locking.DistributedLock;
import io.hostloom.springboot.HostLoomAutoConfiguration;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnSingleCandidate;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.integration.leader.Candidate;
import org.springframework.integration.support.locks.LockRegistry;

/**
 * Spring Integration on the starter's {@link DistributedLock}, when {@code
 * io.hostloom:hostloom-spring-integration} and Spring Integration are on the classpath: a {@link
 * HostLoomLockRegistry} unless the application defines a {@link LockRegistry}, and a {@link
 * HostLoomLeaderInitiator} for the application's single {@link Candidate} bean unless it defines an
 * initiator itself (leadership options: {@code LeadershipOptions.DEFAULTS}; define the initiator
 * bean to choose others).
 */
@AutoConfiguration(after = HostLoomAutoConfiguration.class)
@ConditionalOnClass({LockRegistry.class, HostLoomLockRegistry.class})
@ConditionalOnBean(DistributedLock.class)
public class HostLoomIntegrationAutoConfiguration {

  @Bean
  @ConditionalOnMissingBean(LockRegistry.class)
  HostLoomLockRegistry hostloomLockRegistry(DistributedLock lock) {
    return HostLoomLockRegistry.of(lock);
  }

  /** The initiator, apart so that a missing {@code hostloom-leadership} only skips it. */
  @Configuration(proxyBeanMethods = false)
  @ConditionalOnClass(name = "io.hostloom.leadership.LeaderElector")
  static class LeaderInitiatorConfiguration {
    @Bean
    @ConditionalOnSingleCandidate(Candidate.class)
    @ConditionalOnMissingBean(HostLoomLeaderInitiator.class)
    HostLoomLeaderInitiator hostloomLeaderInitiator(DistributedLock lock, Candidate candidate) {
      return new HostLoomLeaderInitiator(lock, candidate);
    }
  }
}
