package io.hostloom.springboot.boot3.health;

import io.hostloom.springboot.leadership.HostLoomLeadershipAutoConfiguration;
import io.hostloom.springboot.leadership.LeaderElectors;
import io.hostloom.springboot.leadership.LeadershipHealthCheck;
import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.boot.actuate.autoconfigure.health.ConditionalOnEnabledHealthIndicator;
import org.springframework.boot.actuate.health.CompositeHealthContributor;
import org.springframework.boot.actuate.health.Health;
import org.springframework.boot.actuate.health.HealthContributor;
import org.springframework.boot.actuate.health.HealthIndicator;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/**
 * The {@code leadership} health contributor on Spring Boot 3.5: one indicator per role, each the
 * Boot-neutral {@link LeadershipHealthCheck} in this Boot line's health types. Off with {@code
 * management.health.leadership.enabled=false}.
 */
@AutoConfiguration(after = HostLoomLeadershipAutoConfiguration.class)
@ConditionalOnClass(value = HealthIndicator.class, name = "io.hostloom.leadership.LeaderElector")
@ConditionalOnBean(LeaderElectors.class)
@ConditionalOnEnabledHealthIndicator("leadership")
public class LeadershipHealthAutoConfiguration {

  @Bean
  @ConditionalOnMissingBean(name = "leadershipHealthContributor")
  HealthContributor leadershipHealthContributor(LeaderElectors electors) {
    Map<String, HealthIndicator> perRole = new LinkedHashMap<>();
    electors.all().forEach((role, e) -> perRole.put(role, indicator(new LeadershipHealthCheck(e))));
    return CompositeHealthContributor.fromMap(perRole);
  }

  private static HealthIndicator indicator(LeadershipHealthCheck check) {
    return () -> {
      LeadershipHealthCheck.Result r = check.check();
      return Health.status(r.state().name()).withDetails(r.details()).build();
    };
  }
}
