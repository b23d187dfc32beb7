package io.hostloom.springboot.scheduling;

import static org.assertj.core.api.Assertions.assertThat;

import io.hostloom.leadership.LeaderElection;
import io.hostloom.scheduling.RunOutcome;
import io.hostloom.scheduling.ScheduleState;
import io.hostloom.springboot.HostLoomAutoConfiguration;
import io.hostloom.springboot.backend.memory.MemoryBackendAutoConfiguration;
import io.hostloom.springboot.leadership.HostLoomLeadershipAutoConfiguration;
import io.hostloom.springboot.leadership.LeaderElectors;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/** {@code @ExclusiveSchedule(leaderRole = ...)} over the starter's leader electors. */
class LeaderOnlyScheduleTest {
  private final ApplicationContextRunner runner =
      new ApplicationContextRunner()
          .withConfiguration(
              AutoConfigurations.of(
                  HostLoomAutoConfiguration.class,
                  MemoryBackendAutoConfiguration.class,
                  HostLoomLeadershipAutoConfiguration.class,
                  ExclusiveScheduleAutoConfiguration.class))
          .withPropertyValues(
              "hostloom.locking.namespace=app",
              "hostloom.backend=memory",
              // no second attempt within the test after a resignation
              "hostloom.leadership.roles.billing.retry-interval=10m",
              "jobs.role=billing");

  static class Jobs {
    final AtomicInteger runs = new AtomicInteger();
    final ObjectProvider<LeaderElectors> electors;

    Jobs(ObjectProvider<LeaderElectors> electors) {
      this.electors = electors;
    }

    @ExclusiveSchedule(name = "invoice-run", leaderRole = "${jobs.role}")
    public void settle() {
      runs.incrementAndGet();
    }

    @ExclusiveSchedule(name = "handover", leaderRole = "billing")
    public void resignMidRun() {
      electors.getObject().get("billing").resign();
    }

    public int count() {
      return runs.get();
    }
  }

  // public: proxied by CGLIB also under the FilteredClassLoader
  public static class UnknownRole {
    @ExclusiveSchedule(name = "x", leaderRole = "nope")
    public void run() {}
  }

  private static ScheduleState state(ExclusiveScheduleRegistry registry, String name) {
    return registry.states().stream()
        .filter(s -> s.schedule().equals(name))
        .findFirst()
        .orElseThrow();
  }

  @Test
  void theLeaderRunsWithItsTermAFollowerSkipsALostTermIsClaimLost() {
    runner
        .withBean(Jobs.class)
        .run(
            ctx -> {
              assertThat(ctx).hasNotFailed();
              LeaderElection billing = ctx.getBean(LeaderElectors.class).get("billing");
              long term = billing.awaitLeadership(Duration.ofSeconds(10)).orElseThrow().term();
              Jobs jobs = ctx.getBean(Jobs.class);
              ExclusiveScheduleRegistry registry = ctx.getBean(ExclusiveScheduleRegistry.class);

              jobs.settle();
              assertThat(jobs.count()).isEqualTo(1);
              ScheduleState led = state(registry, "invoice-run");
              assertThat(led.lastResult().orElseThrow().outcome()).isEqualTo(RunOutcome.SUCCEEDED);
              assertThat(led.lastResult().orElseThrow().fencingToken()).isEqualTo(term);

              jobs.resignMidRun();
              assertThat(state(registry, "handover").lastResult().orElseThrow().outcome())
                  .isEqualTo(RunOutcome.CLAIM_LOST);

              assertThat(billing.isLeader()).isFalse();
              jobs.settle();
              assertThat(jobs.count()).isEqualTo(1);
              assertThat(state(registry, "invoice-run").lastResult().orElseThrow().outcome())
                  .isEqualTo(RunOutcome.SKIPPED);
            });
  }

  @Test
  void aLeaderRoleWithoutTheLeadershipModuleFailsStartUpNamingTheMethod() {
    runner
        .withClassLoader(new FilteredClassLoader("io.hostloom.leadership."))
        .withBean(UnknownRole.class)
        .run(
            ctx ->
                assertThat(ctx)
                    .getFailure()
                    .hasStackTraceContaining("UnknownRole.run is misconfigured")
                    .hasStackTraceContaining("needs io.hostloom:hostloom-leadership"));
  }

  @Test
  void aRoleWithoutAnElectorFailsStartUpNamingTheMethod() {
    runner
        .withBean(UnknownRole.class)
        .run(
            ctx ->
                assertThat(ctx)
                    .getFailure()
                    .hasStackTraceContaining("@ExclusiveSchedule on ")
                    .hasStackTraceContaining("UnknownRole.run is misconfigured")
                    .hasStackTraceContaining("leaderRole 'nope' is not configured")
                    .hasStackTraceContaining("[billing]"));
  }
}
