package io.hostloom.springboot.scheduling;

import static org.assertj.core.api.Assertions.assertThat;

import io.hostloom.scheduling.RunOutcome;
import io.hostloom.scheduling.ScheduleOptions;
import io.hostloom.scheduling.ScheduleState;
import io.hostloom.springboot.HostLoomAutoConfiguration;
import io.hostloom.springboot.backend.memory.MemoryBackendAutoConfiguration;
import io.hostloom.testkit.TestTiming;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.diagnostics.FailureAnalyzer;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.io.support.SpringFactoriesLoader;
import org.springframework.scheduling.annotation.EnableScheduling;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.scheduling.concurrent.ThreadPoolTaskScheduler;

class ExclusiveScheduleAutoConfigurationTest {
  private final ApplicationContextRunner runner =
      new ApplicationContextRunner()
          .withConfiguration(
              AutoConfigurations.of(
                  HostLoomAutoConfiguration.class,
                  MemoryBackendAutoConfiguration.class,
                  ExclusiveScheduleAutoConfiguration.class))
          .withPropertyValues(
              "hostloom.locking.namespace=app", "hostloom.backend=memory", "jobs.name=report");

  static class Jobs {
    final AtomicInteger runs = new AtomicInteger();

    @ExclusiveSchedule(name = "${jobs.name}", lease = "10s", minimumHold = "PT5S")
    public void report() {
      runs.incrementAndGet();
    }

    public int count() { // through the proxy: its own fields are not the target's
      return runs.get();
    }
  }

  @Configuration(proxyBeanMethods = false)
  static class JobsConfig {
    @Bean
    Jobs jobs() {
      return new Jobs();
    }
  }

  @Test
  void anAnnotatedMethodRunsThroughItsGuardWithPlaceholdersAndDurationStrings() {
    runner
        .withUserConfiguration(JobsConfig.class)
        .run(
            ctx -> {
              assertThat(ctx).hasNotFailed();
              Jobs jobs = ctx.getBean(Jobs.class);
              jobs.report();
              jobs.report(); // the 5 s minimum hold still holds the claim: skipped
              assertThat(jobs.count()).isEqualTo(1);
              ScheduleState state = ctx.getBean(ExclusiveScheduleRegistry.class).states().get(0);
              assertThat(state.schedule()).isEqualTo("report");
              assertThat(state.runCount()).isEqualTo(1);
              assertThat(state.lastResult().orElseThrow().outcome()).isEqualTo(RunOutcome.SKIPPED);
            });
  }

  static class TickJobs {
    final AtomicInteger runs = new AtomicInteger();

    @Scheduled(fixedDelay = 10)
    @ExclusiveSchedule(name = "tick")
    public void tick() {
      runs.incrementAndGet();
    }

    public int count() {
      return runs.get();
    }
  }

  @Configuration(proxyBeanMethods = false)
  @EnableScheduling
  static class TickConfig {
    @Bean
    TickJobs tickJobs() {
      return new TickJobs();
    }
  }

  @Test
  void springsSchedulerCallsTheGuardedProxy() {
    runner
        .withUserConfiguration(TickConfig.class)
        .run(
            ctx -> {
              assertThat(ctx).hasNotFailed();
              ExclusiveScheduleRegistry registry = ctx.getBean(ExclusiveScheduleRegistry.class);
              TestTiming.await(
                  "two guarded runs",
                  () ->
                      registry.states().stream()
                          .anyMatch(s -> s.schedule().equals("tick") && s.runCount() >= 2),
                  Duration.ofSeconds(10));
              assertThat(ctx.getBean(TickJobs.class).count()).isGreaterThanOrEqualTo(2);
            });
  }

  static class TooLongHold {
    @ExclusiveSchedule(name = "x", lease = "1s", minimumHold = "2s")
    public void run() {}
  }

  static class EmptyName {
    @ExclusiveSchedule(name = "${jobs.empty:}")
    public void run() {}
  }

  static class TooLongLease {
    @ExclusiveSchedule(name = "x", lease = "10m")
    public void run() {}
  }

  @Test
  void misconfiguredAnnotationsFailStartUpNamingTheMethod() {
    runner
        .withBean(TooLongHold.class)
        .run(
            ctx ->
                assertThat(ctx)
                    .getFailure()
                    .hasStackTraceContaining("@ExclusiveSchedule on ")
                    .hasStackTraceContaining("TooLongHold.run is misconfigured")
                    .hasStackTraceContaining("minimumHold"));
    runner
        .withBean(EmptyName.class)
        .run(
            ctx ->
                assertThat(ctx)
                    .getFailure()
                    .hasStackTraceContaining("EmptyName.run")
                    .hasStackTraceContaining("name is empty"));
    runner
        .withBean(TooLongLease.class)
        .run(
            ctx ->
                assertThat(ctx)
                    .getFailure()
                    .hasStackTraceContaining("TooLongLease.run")
                    .hasStackTraceContaining("hostloom.locking.max-lease"));
  }

  @Test
  void aMisconfiguredAnnotationGetsBootsStartUpReportNotAStackTrace() {
    runner
        .withBean(TooLongHold.class)
        .run(
            ctx -> {
              FailureAnalysis analysis =
                  SpringFactoriesLoader.forDefaultResourceLocation(getClass().getClassLoader())
                      // Boot's own analyzers that need constructor arguments are left out
                      .load(
                          FailureAnalyzer.class,
                          null,
                          SpringFactoriesLoader.FailureHandler.handleMessage((m, e) -> {}))
                      .stream()
                      .map(a -> a.analyze(ctx.getStartupFailure()))
                      .filter(Objects::nonNull)
                      .findFirst()
                      .orElseThrow();
              assertThat(analysis.getDescription())
                  .startsWith("@ExclusiveSchedule on ")
                  .contains("TooLongHold.run is misconfigured")
                  .contains("minimumHold");
              assertThat(analysis.getAction())
                  .contains("Fix the @ExclusiveSchedule attributes of")
                  .contains("TooLongHold.run");
            });
  }

  /** Records every bean that post-processors registered after the starter's still process. */
  static class LatePostProcessor implements BeanPostProcessor {
    static final Set<String> seen = ConcurrentHashMap.newKeySet();

    @Override
    public Object postProcessBeforeInitialization(Object bean, String beanName) {
      seen.add(beanName);
      return bean;
    }
  }

  @Test
  void theRegistryIsNotCreatedWhilePostProcessorsAreRegistered() {
    // creating it that early made Spring log "Bean 'hostloomExclusiveScheduleRegistry' ... is not
    // eligible for getting processed by all BeanPostProcessors" on every start
    LatePostProcessor.seen.clear();
    runner
        .withBean(LatePostProcessor.class)
        .withBean(Jobs.class)
        .run(
            ctx -> {
              assertThat(ctx).hasNotFailed();
              assertThat(LatePostProcessor.seen).contains("hostloomExclusiveScheduleRegistry");
            });
  }

  @Test
  void theTaskSchedulerDecoratorGuardsExclusiveTasksAndPassesOthersThrough() {
    runner.run(
        ctx -> {
          ThreadPoolTaskScheduler pool = new ThreadPoolTaskScheduler();
          pool.initialize();
          try {
            ExclusiveScheduleRegistry registry = ctx.getBean(ExclusiveScheduleRegistry.class);
            ExclusiveTaskScheduler scheduler = new ExclusiveTaskScheduler(pool, registry);
            AtomicInteger guarded = new AtomicInteger();
            AtomicInteger plain = new AtomicInteger();
            ScheduleOptions options =
                ScheduleOptions.builder("cleanup").minimumHold(Duration.ofSeconds(5)).build();
            scheduler.schedule(
                ExclusiveTaskScheduler.exclusive(options, guarded::incrementAndGet), Instant.now());
            TestTiming.await("the first run", () -> guarded.get() == 1, Duration.ofSeconds(10));
            scheduler.schedule(
                ExclusiveTaskScheduler.exclusive(options, guarded::incrementAndGet), Instant.now());
            scheduler.schedule(plain::incrementAndGet, Instant.now());
            TestTiming.await(
                "the second occurrence skipped",
                // the first run may still be recording its result: no result yet is not yet
                () ->
                    registry
                        .guard(options)
                        .state()
                        .lastResult()
                        .map(r -> r.outcome() == RunOutcome.SKIPPED)
                        .orElse(false),
                Duration.ofSeconds(10));
            TestTiming.await("the plain task", () -> plain.get() == 1, Duration.ofSeconds(10));
            assertThat(guarded).hasValue(1);
          } finally {
            pool.shutdown();
          }
        });
  }
}
