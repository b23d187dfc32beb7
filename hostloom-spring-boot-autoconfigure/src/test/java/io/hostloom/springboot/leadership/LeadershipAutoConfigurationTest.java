package io.hostloom.springboot.leadership;

import static org.assertj.core.api.Assertions.assertThat;

import io.hostloom.leadership.LeaderElection;
import io.hostloom.leadership.LeaderElector;
import io.hostloom.leadership.LeadershipOptions;
import io.hostloom.leadership.testing.ScriptedLeaderElection;
import io.hostloom.locking.memory.InMemoryLockBackend;
import io.hostloom.locking.spi.LockBackend;
import io.hostloom.micrometer.LeaderMetricsListener;
import io.hostloom.springboot.HostLoomAutoConfiguration;
import io.hostloom.springboot.HostLoomConfigurationException;
import io.hostloom.springboot.backend.memory.MemoryBackendAutoConfiguration;
import io.hostloom.testkit.TestTiming;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.ConfigurableApplicationContext;

class LeadershipAutoConfigurationTest {
  static final String KEY = "app:lock:leader:billing";

  final ApplicationContextRunner runner =
      new ApplicationContextRunner()
          .withConfiguration(
              AutoConfigurations.of(
                  HostLoomAutoConfiguration.class,
                  MemoryBackendAutoConfiguration.class,
                  HostLoomLeadershipAutoConfiguration.class))
          .withPropertyValues("hostloom.locking.namespace=app", "hostloom.backend=memory");

  @Test
  void rolesComeFromPropertiesLeadWithMeters() {
    runner
        .withBean(MeterRegistry.class, SimpleMeterRegistry::new)
        .withPropertyValues(
            "hostloom.leadership.roles.billing.lease=6s",
            "hostloom.leadership.roles.billing.renew-interval=3s",
            "hostloom.leadership.roles.billing.retry-interval=200ms",
            "hostloom.leadership.roles.billing.jitter=0ms",
            "hostloom.leadership.roles.reports.retry-interval=300ms",
            "hostloom.leadership.roles.off.enabled=false")
        .run(
            ctx -> {
              LeaderElectors electors = ctx.getBean(LeaderElectors.class);
              assertThat(electors.all()).containsOnlyKeys("billing", "reports");
              assertThat(electors.all().get("billing").options())
                  .isEqualTo(
                      LeadershipOptions.builder()
                          .lease(Duration.ofSeconds(6))
                          .renewInterval(Duration.ofSeconds(3))
                          .retryInterval(Duration.ofMillis(200))
                          .jitter(Duration.ZERO)
                          .build());
              assertThat(electors.all().get("reports").options().lease())
                  .isEqualTo(LeadershipOptions.DEFAULT_LEASE);
              LeaderElection billing = electors.get("billing");
              TestTiming.await(billing::isLeader, Duration.ofSeconds(10));
              assertThat(electors.isRunning()).isTrue();

              MeterRegistry meters = ctx.getBean(MeterRegistry.class);
              assertThat(
                      meters
                          .get(LeaderMetricsListener.IS_LEADER)
                          .tag(LeaderMetricsListener.ROLE_TAG, "billing")
                          .gauge()
                          .value())
                  .isEqualTo(1.0);
            });
  }

  @Test
  void closingTheContextHandsLeadershipOverBeforeTheLeaseEnds() {
    InMemoryLockBackend shared = new InMemoryLockBackend();
    ApplicationContextRunner instance =
        runner
            .withBean(LockBackend.class, () -> shared)
            .withPropertyValues(
                "hostloom.leadership.roles.billing.lease=60s",
                "hostloom.leadership.roles.billing.retry-interval=100ms",
                "hostloom.leadership.roles.billing.jitter=50ms");
    instance.run(
        first -> {
          LeaderElection one = first.getBean(LeaderElectors.class).get("billing");
          TestTiming.await(one::isLeader, Duration.ofSeconds(10));
          long term = one.leadership().orElseThrow().term();
          instance.run(
              second -> {
                LeaderElection two = second.getBean(LeaderElectors.class).get("billing");
                TestTiming.pass(Duration.ofMillis(300)); // several attempts, all refused
                assertThat(two.isLeader()).isFalse();
                ((ConfigurableApplicationContext) first.getSourceApplicationContext()).close();
                // well inside the 60 s lease: only the release on stop can explain it
                TestTiming.await(two::isLeader, Duration.ofSeconds(10));
                assertThat(two.leadership().orElseThrow().term()).isGreaterThan(term);
                assertThat(shared.read(KEY).join()).isPresent();
              });
        });
  }

  @Test
  void badOptionsFailTheContextNamingEveryKey() {
    runner
        .withPropertyValues(
            "hostloom.leadership.roles.billing.lease=4s",
            "hostloom.leadership.roles.billing.renew-interval=3s",
            "hostloom.leadership.roles.reports.jitter=-1s")
        .run(
            ctx -> {
              assertThat(ctx).hasFailed();
              assertThat(ctx.getStartupFailure())
                  .rootCause()
                  .isInstanceOf(HostLoomConfigurationException.class)
                  .hasMessageContaining("hostloom.leadership.roles.billing.renew-interval")
                  .hasMessageContaining("hostloom.leadership.roles.reports.jitter");
            });
  }

  @Test
  void anApplicationsOwnBeansWin() {
    LeaderElectors mine = new LeaderElectors(Map.of());
    runner
        .withBean(LeaderElectors.class, () -> mine)
        .withPropertyValues("hostloom.leadership.roles.billing.lease=6s")
        .run(ctx -> assertThat(ctx.getBean(LeaderElectors.class)).isSameAs(mine));
  }

  @Test
  void theHealthIndicatorSaysLeaderFollowerOrBackendDown() {
    ScriptedLeaderElection e = new ScriptedLeaderElection("billing");
    LeadershipHealthCheck indicator = new LeadershipHealthCheck(e);
    assertThat(indicator.check().details()).containsEntry("status", "follower");
    e.hold(7);
    assertThat(indicator.check().details())
        .containsEntry("status", "leader")
        .containsEntry("term", 7L);
    e.lose();
    e.failNext();
    try {
      e.hold();
    } catch (IllegalStateException expected) {
      // the scripted outage
    }
    LeadershipHealthCheck.Result down = indicator.check();
    assertThat(down.state()).isEqualTo(LeadershipHealthCheck.State.DOWN);
    assertThat(down.details()).containsEntry("status", "backend down");
  }

  @Test
  void electorsStopWithTheContext() {
    runner
        .withPropertyValues("hostloom.leadership.roles.billing.retry-interval=100ms")
        .run(
            ctx -> {
              LeaderElector e = ctx.getBean(LeaderElectors.class).all().get("billing");
              TestTiming.await(e::isLeader, Duration.ofSeconds(10));
              ctx.close();
              assertThat(e.status()).isEqualTo(io.hostloom.leadership.LeaderStatus.STOPPED);
            });
  }
}
