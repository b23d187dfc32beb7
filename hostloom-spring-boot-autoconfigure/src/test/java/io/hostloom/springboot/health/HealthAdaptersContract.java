package io.hostloom.springboot.health;

import static org.assertj.core.api.Assertions.assertThat;

import io.hostloom.locking.spi.BackendHealth;
import io.hostloom.locking.spi.LockBackend;
import io.hostloom.springboot.HostLoomAutoConfiguration;
import io.hostloom.springboot.backend.memory.MemoryBackendAutoConfiguration;
import io.hostloom.springboot.leadership.HostLoomLeadershipAutoConfiguration;
import io.hostloom.springboot.leadership.LeaderElectors;
import io.hostloom.testkit.TestTiming;
import java.lang.reflect.Method;
import java.time.Duration;
import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.util.ReflectionUtils;

/**
 * What each Boot generation's health adapters must do, written once: the {@code hostloom} indicator
 * mirrors {@link HostLoomHealthCheck} (status and details) and can be switched off; the {@code
 * leadership} contributor has one indicator per role saying leader with its term, and can be
 * switched off. Each starter subclasses it, naming its generation's three classes in the
 * constructor. Boot 3.5 and 4 put {@code Health}, {@code HealthIndicator} and {@code
 * CompositeHealthContributor} in different packages but give them the same methods ({@code
 * health()}, {@code getStatus().getCode()}, {@code getDetails()}, {@code getContributor(name)}), so
 * the contract reads them by those names and no starter repeats the reading.
 */
public abstract class HealthAdaptersContract {

  /** An indicator's answer, read from the Boot generation's {@code Health}. */
  public record Reading(String status, Map<String, Object> details) {}

  private final Class<?> healthAutoConfiguration;
  private final Class<?> leadershipHealthAutoConfiguration;
  private final Class<?> indicatorType;

  /**
   * @param healthAutoConfiguration the generation's {@code HostLoomHealthAutoConfiguration}
   * @param leadershipHealthAutoConfiguration its {@code LeadershipHealthAutoConfiguration}
   * @param indicatorType its {@code HostLoomHealthIndicator}
   */
  protected HealthAdaptersContract(
      Class<?> healthAutoConfiguration,
      Class<?> leadershipHealthAutoConfiguration,
      Class<?> indicatorType) {
    this.healthAutoConfiguration = healthAutoConfiguration;
    this.leadershipHealthAutoConfiguration = leadershipHealthAutoConfiguration;
    this.indicatorType = indicatorType;
  }

  /** {@code indicator.health()}, read. */
  private static Reading health(Object indicator) {
    Object health = call(indicator, "health");
    @SuppressWarnings("unchecked") // Health.getDetails() is a Map<String, Object> in both
    Map<String, Object> details = (Map<String, Object>) call(health, "getDetails");
    return new Reading((String) call(call(health, "getStatus"), "getCode"), details);
  }

  /** The health of {@code role} in the {@code leadershipHealthContributor} bean, read. */
  private static Reading roleHealth(Object leadershipContributor, String role) {
    return health(call(leadershipContributor, "getContributor", role));
  }

  private static Object call(Object target, String method, Object... args) {
    Class<?>[] types = new Class<?>[args.length];
    Arrays.fill(types, String.class); // the only argument read here is a contributor's name
    Method m = ReflectionUtils.findMethod(target.getClass(), method, types);
    assertThat(m).as("%s.%s", target.getClass().getName(), method).isNotNull();
    ReflectionUtils.makeAccessible(m);
    return ReflectionUtils.invokeMethod(m, target, args);
  }

  private ApplicationContextRunner healthRunner() {
    return new ApplicationContextRunner()
        .withConfiguration(
            AutoConfigurations.of(
                HostLoomAutoConfiguration.class,
                MemoryBackendAutoConfiguration.class,
                healthAutoConfiguration))
        .withPropertyValues("hostloom.locking.namespace=health");
  }

  private ApplicationContextRunner leadershipRunner() {
    return new ApplicationContextRunner()
        .withConfiguration(
            AutoConfigurations.of(
                HostLoomAutoConfiguration.class,
                MemoryBackendAutoConfiguration.class,
                HostLoomLeadershipAutoConfiguration.class,
                leadershipHealthAutoConfiguration))
        .withPropertyValues(
            "hostloom.locking.namespace=health",
            "hostloom.backend=memory",
            "hostloom.leadership.roles.billing.retry-interval=100ms",
            "hostloom.leadership.roles.billing.jitter=0ms");
  }

  @Test
  void oneIndicatorNamedHostloomCarriesTheChecksStatusAndDetails() {
    ProbedBackend probed = new ProbedBackend();
    healthRunner()
        .withBean(LockBackend.class, () -> probed)
        .run(
            ctx -> {
              assertThat(ctx).hasSingleBean(indicatorType);
              assertThat(ctx).hasBean("hostloomHealthIndicator");
              Object indicator = ctx.getBean(indicatorType);
              probed.answer = CompletableFuture.completedFuture(BackendHealth.healthy("PONG"));
              Reading up = health(indicator);
              assertThat(up.status()).isEqualTo("UP");
              assertThat(up.details()).containsEntry("backend", "probed");
              assertThat(up.details()).containsEntry("probe", "PONG");
              probed.answer = CompletableFuture.completedFuture(BackendHealth.unhealthy("gone"));
              assertThat(health(indicator).status()).isEqualTo("DOWN");
            });
  }

  @Test
  void theIndicatorCanBeSwitchedOff() {
    healthRunner()
        .withPropertyValues("hostloom.backend=memory", "management.health.hostloom.enabled=false")
        .run(ctx -> assertThat(ctx).doesNotHaveBean(indicatorType));
  }

  @Test
  void eachRoleHasAnIndicatorThatSaysLeaderWithItsTerm() {
    leadershipRunner()
        .run(
            ctx -> {
              LeaderElectors electors = ctx.getBean(LeaderElectors.class);
              TestTiming.await(electors.get("billing")::isLeader, Duration.ofSeconds(10));
              Reading h = roleHealth(ctx.getBean("leadershipHealthContributor"), "billing");
              assertThat(h.status()).isEqualTo("UP");
              assertThat(h.details())
                  .containsEntry("status", "leader")
                  .containsEntry("term", electors.get("billing").leadership().orElseThrow().term());
            });
  }

  @Test
  void theLeadershipContributorCanBeSwitchedOff() {
    leadershipRunner()
        .withPropertyValues("management.health.leadership.enabled=false")
        .run(ctx -> assertThat(ctx).doesNotHaveBean("leadershipHealthContributor"));
  }
}
