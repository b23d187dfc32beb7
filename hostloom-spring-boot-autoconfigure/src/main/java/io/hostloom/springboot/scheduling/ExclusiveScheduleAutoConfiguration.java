package io.hostloom.springboot.scheduling;

import io.hostloom.locking.DistributedLock;
import io.hostloom.locking.time.LockClock;
import io.hostloom.scheduling.ScheduleGuard;
import io.hostloom.scheduling.ScheduleListener;
import io.hostloom.springboot.HostLoomAutoConfiguration;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;

/**
 * Guards {@link ExclusiveSchedule} methods (when {@code hostloom-scheduling} is on the class path
 * and {@code hostloom.scheduling.enabled} is not false) and offers the {@link
 * ExclusiveScheduleRegistry} for {@link ExclusiveTaskScheduler}. A {@link ScheduleListener} bean
 * (unique) receives every run, e.g. {@code new ScheduleMetrics(meterRegistry)}. A method with
 * {@code leaderRole} runs on the leader of that role through the starter's {@code LeaderElectors}.
 */
@AutoConfiguration(after = HostLoomAutoConfiguration.class)
@ConditionalOnClass({ScheduleGuard.class, DistributedLock.class})
@ConditionalOnProperty(
    prefix = "hostloom.scheduling",
    name = "enabled",
    havingValue = "true",
    matchIfMissing = true)
@EnableConfigurationProperties(ExclusiveScheduleProperties.class)
public class ExclusiveScheduleAutoConfiguration {

  @Bean
  static ExclusiveScheduleRegistry hostloomExclusiveScheduleRegistry(
      ObjectProvider<DistributedLock> lock,
      ObjectProvider<LockClock> clock,
      ObjectProvider<ScheduleListener> listener,
      BeanFactory beans) {
    return new ExclusiveScheduleRegistry(lock, clock, listener, beans);
  }

  @Bean
  static ExclusiveSchedulePostProcessor hostloomExclusiveSchedulePostProcessor(
      Environment environment, ObjectProvider<ExclusiveScheduleRegistry> registry) {
    return new ExclusiveSchedulePostProcessor(
        new ExclusiveScheduleInterceptor(
            new ExclusiveScheduleResolver(environment), registry::getObject));
  }
}
