package io.hostloom.springboot.boot4.health;

import io.hostloom.springboot.leadership.HostLoomLeadershipAutoConfiguration;
import io.hostloom.springboot.leadership.LeaderElectors;
import io.hostloom.springboot.leadership.LeadershipHealthCheck;
import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.health.autoconfigure.contributor.ConditionalOnEnabledHealthIndicator;
import org.springframework.boot.health.contributor.CompositeHealthContributor;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthContributor;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.context.annotation.Bean;

/**
 * The {@code leadership} health contributor on Spring Boot 4: one indicator per role, each the
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
