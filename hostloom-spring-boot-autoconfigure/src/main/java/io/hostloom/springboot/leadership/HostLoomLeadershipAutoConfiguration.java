package io.hostloom.springboot.leadership;

import io.hostloom.leadership.LeaderElector;
import io.hostloom.leadership.LeadershipListener;
import io.hostloom.leadership.LeadershipOptions;
import io.hostloom.locking.DistributedLock;
import io.hostloom.locking.time.LockClock;
import io.hostloom.micrometer.LeaderMetricsListener;
import io.hostloom.springboot.HostLoomAutoConfiguration;
import io.hostloom.springboot.HostLoomConfigurationException;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Leader electors for the roles under {@code hostloom.leadership.roles.<role>.*}, on the starter's
 * {@link DistributedLock} and {@link LockClock}, when {@code io.hostloom:hostloom-leadership} is on
 * the classpath: a {@link LeaderElectors} bean (a {@code SmartLifecycle}), leader meters when
 * {@code hostloom-micrometer} and a {@code MeterRegistry} are there, and a {@code leadership}
 * health contributor with one indicator per role when Actuator is (from the Boot-specific starter,
 * over {@link LeadershipHealthCheck}). Every bean backs off when the application defines its own.
 */
@AutoConfiguration(
    after = HostLoomAutoConfiguration.class,
    afterName = {
      "org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration",
      "org.springframework.boot.micrometer.metrics.autoconfigure.export.simple.SimpleMetricsExportAutoConfiguration",
      "org.springframework.boot.actuate.autoconfigure.metrics.CompositeMeterRegistryAutoConfiguration",
      "org.springframework.boot.actuate.autoconfigure.metrics.export.simple.SimpleMetricsExportAutoConfiguration"
    })
@ConditionalOnClass(LeaderElector.class)
@ConditionalOnBean(DistributedLock.class)
@EnableConfigurationProperties(HostLoomLeadershipProperties.class)
public class HostLoomLeadershipAutoConfiguration {
  static final String PREFIX = "hostloom.leadership.roles.";

  @Bean
  @ConditionalOnMissingBean
  LeaderElectors hostloomLeaderElectors(
      HostLoomLeadershipProperties properties,
      DistributedLock lock,
      ObjectProvider<LockClock> clock,
      ObjectProvider<LeadershipListener> listener) {
    Map<String, LeaderElector> electors = new LinkedHashMap<>();
    List<String> problems = new ArrayList<>();
    LockClock c = clock.getIfUnique(LockClock::system);
    LeadershipListener l = listener.getIfUnique(() -> LeadershipListener.NO_OP);
    properties
        .getRoles()
        .forEach(
            (role, p) -> {
              if (!p.isEnabled()) {
                return;
              }
              LeadershipOptions.Builder b = LeadershipOptions.builder();
              if (p.getLease() != null) {
                b.lease(p.getLease());
              }
              if (p.getRenewInterval() != null) {
                b.renewInterval(p.getRenewInterval());
              }
              if (p.getRetryInterval() != null) {
                b.retryInterval(p.getRetryInterval());
              }
              if (p.getJitter() != null) {
                b.jitter(p.getJitter());
              }
              List<String> bad = b.validate(PREFIX + role + ".");
              if (!bad.isEmpty()) {
                problems.addAll(bad);
                return;
              }
              electors.put(
                  role,
                  LeaderElector.builder(lock, role)
                      .options(b.build())
                      .clock(c)
                      .listener(l)
                      .build());
            });
    if (!problems.isEmpty()) {
      throw HostLoomConfigurationException.of(problems);
    }
    return new LeaderElectors(electors);
  }

  /**
   * Leader meters ({@code hostloom.leader.*}) when Micrometer and hostloom-micrometer are there.
   */
  @Configuration(proxyBeanMethods = false)
  @ConditionalOnClass({LeaderMetricsListener.class, MeterRegistry.class})
  @ConditionalOnBean(MeterRegistry.class)
  static class Metrics {
    @Bean
    @ConditionalOnMissingBean(LeadershipListener.class)
    LeaderMetricsListener hostloomLeaderMetricsListener(MeterRegistry meters) {
      return new LeaderMetricsListener(meters);
    }
  }
}
