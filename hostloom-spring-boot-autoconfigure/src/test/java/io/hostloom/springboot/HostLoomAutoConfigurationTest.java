package io.hostloom.springboot;

import static org.assertj.core.api.Assertions.assertThat;

import io.hostloom.locking.DistributedLock;
import io.hostloom.locking.LockDescription;
import io.hostloom.locking.LockRetryPolicy;
import io.hostloom.locking.memory.InMemoryLockBackend;
import io.hostloom.locking.spi.LockBackend;
import io.hostloom.locking.testing.ManualLockClock;
import io.hostloom.locking.time.LockClock;
import io.hostloom.springboot.backend.azure.AzureBackendAutoConfiguration;
import io.hostloom.springboot.backend.mariadb.MariaDbBackendAutoConfiguration;
import io.hostloom.springboot.backend.memory.MemoryBackendAutoConfiguration;
import io.hostloom.springboot.backend.postgres.PostgresBackendAutoConfiguration;
import io.hostloom.springboot.backend.redis.RedisBackendAutoConfiguration;
import io.hostloom.wopi.WopiLockComparer;
import io.hostloom.wopi.WopiLockProtocol;
import io.hostloom.wopi.WopiLockProvider;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/** The core, memory and WOPI auto-configurations, through {@link ApplicationContextRunner}. */
class HostLoomAutoConfigurationTest {
  static final AutoConfigurations ALL =
      AutoConfigurations.of(
          HostLoomAutoConfiguration.class,
          MemoryBackendAutoConfiguration.class,
          RedisBackendAutoConfiguration.class,
          AzureBackendAutoConfiguration.class,
          PostgresBackendAutoConfiguration.class,
          MariaDbBackendAutoConfiguration.class,
          HostLoomWopiAutoConfiguration.class);

  final ApplicationContextRunner runner =
      new ApplicationContextRunner()
          .withConfiguration(ALL)
          .withPropertyValues("hostloom.locking.namespace=orders");

  @Test
  void memoryBackendGivesALockAWopiProviderAndTheProtocolOverIt() {
    runner
        .withPropertyValues("hostloom.backend=memory")
        .run(
            ctx -> {
              assertThat(ctx).hasNotFailed();
              assertThat(ctx).hasSingleBean(InMemoryLockBackend.class);
              assertThat(ctx).hasSingleBean(DistributedLock.class);
              assertThat(ctx).hasSingleBean(WopiLockProvider.class);
              assertThat(ctx).hasSingleBean(WopiLockProtocol.class);
              DistributedLock lock = ctx.getBean(DistributedLock.class);
              assertThat(lock.isCoordinated()).isTrue();
              assertThat(lock.describe().namespace()).isEqualTo("orders");
              WopiLockProvider wopi = ctx.getBean(WopiLockProvider.class);
              assertThat(wopi.comparer()).isSameAs(WopiLockComparer.ordinal());
              assertThat(wopi.expiry()).isEqualTo(Duration.ofMinutes(30));
              // the WOPI provider and the lock share the backend
              assertThat(wopi.add("f", "L").success()).isTrue();
              assertThat(ctx.getBean(InMemoryLockBackend.class).liveCount()).isEqualTo(1);
              // a kernel lock works end to end
              assertThat(lock.tryAcquire("job")).isPresent();
            });
  }

  @Test
  void everyLockingSettingReachesTheLockAndEachValueShowsItsSource() {
    runner
        .withPropertyValues(
            "hostloom.backend=memory",
            "hostloom.locking.default-lease=10s",
            "hostloom.locking.max-lease=100s",
            "hostloom.locking.max-hold=1000s",
            "hostloom.locking.retry=interval:7x70ms+7ms",
            "hostloom.locking.auto-extend=true",
            "hostloom.locking.detect-reentrancy=false",
            "hostloom.locking.max-key-length=77",
            "hostloom.wopi.lock-comparer=json-shaped",
            "hostloom.wopi.lock-expiry=90s",
            "hostloom.wopi.key-prefix=files:wopi:")
        .run(
            ctx -> {
              assertThat(ctx).hasNotFailed();
              DistributedLock lock = ctx.getBean(DistributedLock.class);
              assertThat(lock.options().orElseThrow().defaultLease())
                  .isEqualTo(Duration.ofSeconds(10));
              assertThat(lock.options().orElseThrow().maxLease())
                  .isEqualTo(Duration.ofSeconds(100));
              assertThat(lock.options().orElseThrow().maxHold())
                  .isEqualTo(Duration.ofSeconds(1000));
              assertThat(lock.options().orElseThrow().retry())
                  .isEqualTo(
                      LockRetryPolicy.interval(7, Duration.ofMillis(70))
                          .withJitter(Duration.ofMillis(7)));
              assertThat(lock.options().orElseThrow().autoExtend()).isTrue();
              assertThat(lock.options().orElseThrow().detectReentrancy()).isFalse();
              assertThat(lock.options().orElseThrow().maxKeyLength()).isEqualTo(77);
              WopiLockProvider wopi = ctx.getBean(WopiLockProvider.class);
              assertThat(wopi.comparer()).isSameAs(WopiLockComparer.jsonShaped());
              assertThat(wopi.expiry()).isEqualTo(Duration.ofSeconds(90));
              assertThat(wopi.keyPrefix()).isEqualTo("files:wopi:");
              LockDescription d = lock.describe();
              assertThat(d.defaultLease()).isEqualTo(Duration.ofSeconds(10));
            });
  }

  /** Contract 108: an enabled lock without a backend fails start-up with one clear message. */
  @Test
  void enabledLockingWithoutABackendFailsStartUpWithOneMessageNamingTheSetting() {
    runner.run(
        ctx -> {
          assertThat(ctx).hasFailed();
          HostLoomConfigurationException e = rootCause(ctx.getStartupFailure());
          assertThat(e.problems()).hasSize(1);
          assertThat(e.getMessage())
              .contains("hostloom.backend is not set")
              .contains("memory, redis, azure, postgres, etcd, zookeeper, mariadb")
              .contains("LockBackend bean")
              .contains("hostloom.locking.enabled=false");
        });
  }

  /** An application bean that needs the backend must not turn the message into "no such bean". */
  @Test
  void theSettingsMessageComesFirstEvenWhenAnApplicationBeanNeedsTheBackend() {
    runner
        .withBean(BackendUser.class)
        .run(
            ctx ->
                assertThat(rootCause(ctx.getStartupFailure()).getMessage())
                    .contains("hostloom.backend is not set"));
  }

  static final class BackendUser {
    BackendUser(LockBackend backend) {}
  }

  @Test
  void invalidSettingsFailStartUpWithOneMessageListingEveryProblem() {
    runner
        .withPropertyValues(
            "hostloom.backend=redis",
            "hostloom.locking.namespace=Bad Space",
            "hostloom.locking.default-lease=10s",
            "hostloom.locking.max-lease=5s",
            "hostloom.locking.max-hold=0s",
            "hostloom.locking.retry=linear:ten",
            "hostloom.locking.max-key-length=0",
            "hostloom.wopi.lock-comparer=fuzzy",
            "hostloom.wopi.lock-expiry=0s")
        .run(
            ctx -> {
              assertThat(ctx).hasFailed();
              HostLoomConfigurationException e = rootCause(ctx.getStartupFailure());
              assertThat(e.getMessage()).startsWith("Invalid HostLoom configuration (8 problems):");
              assertThat(e.problems())
                  .anyMatch(p -> p.startsWith("hostloom.redis.uri is required"))
                  .anyMatch(
                      p -> p.startsWith("hostloom.locking.namespace") && p.contains("'Bad Space'"))
                  .anyMatch(p -> p.startsWith("hostloom.locking.max-lease must be >="))
                  .anyMatch(p -> p.startsWith("hostloom.locking.max-hold must be positive"))
                  .anyMatch(
                      p -> p.startsWith("hostloom.locking.retry") && p.contains("'linear:ten'"))
                  .anyMatch(p -> p.startsWith("hostloom.locking.max-key-length must be positive"))
                  .anyMatch(
                      p -> p.startsWith("hostloom.wopi.lock-comparer") && p.contains("'fuzzy'"))
                  .anyMatch(p -> p.startsWith("hostloom.wopi.lock-expiry must be positive"));
            });
  }

  @Test
  void anUnknownBackendIsNamedWithTheChoices() {
    runner
        .withPropertyValues("hostloom.backend=cassandra")
        .run(
            ctx ->
                assertThat(rootCause(ctx.getStartupFailure()).problems())
                    .containsExactly(
                        "hostloom.backend must be one of memory, redis, azure, postgres, etcd, zookeeper, mariadb but was"
                            + " 'cassandra'"));
  }

  @Test
  void disabledLockingNeedsNoBackendAndRunsActionsUncoordinated() throws Exception {
    runner
        .withPropertyValues("hostloom.locking.enabled=false")
        .run(
            ctx -> {
              assertThat(ctx).hasNotFailed();
              DistributedLock lock = ctx.getBean(DistributedLock.class);
              assertThat(lock.isCoordinated()).isFalse();
              String ran = lock.executeWithLock("k", h -> "ran");
              assertThat(ran).isEqualTo("ran");
              assertThat(ctx).doesNotHaveBean(LockBackend.class);
              assertThat(ctx).doesNotHaveBean(WopiLockProvider.class);
            });
  }

  @Test
  void aUserLockBackendWinsAndNeedsNoBackendSetting() {
    LockBackend mine = new InMemoryLockBackend();
    runner
        .withBean("myBackend", LockBackend.class, () -> mine)
        .run(
            ctx -> {
              assertThat(ctx).hasNotFailed();
              assertThat(ctx.getBean(LockBackend.class)).isSameAs(mine);
              assertThat(ctx.getBean(WopiLockProvider.class).add("f", "L").success()).isTrue();
              assertThat(((InMemoryLockBackend) mine).liveCount()).isEqualTo(1);
            });
  }

  @Test
  void aUserLockBackendWinsOverAConfiguredBackend() {
    LockBackend mine = new InMemoryLockBackend();
    runner
        .withPropertyValues("hostloom.backend=memory")
        .withBean("myBackend", LockBackend.class, () -> mine)
        .run(
            ctx -> {
              assertThat(ctx).hasNotFailed();
              assertThat(ctx).hasSingleBean(LockBackend.class);
              assertThat(ctx.getBean(LockBackend.class)).isSameAs(mine);
            });
  }

  /** The Spring form of contract 109: a second backend registration fails, naming both. */
  @Test
  void twoUserLockBackendsFailStartUpNamingBoth() {
    runner
        .withBean("first", LockBackend.class, InMemoryLockBackend::new)
        .withBean("second", LockBackend.class, InMemoryLockBackend::new)
        .run(
            ctx ->
                assertThat(rootCause(ctx.getStartupFailure()).getMessage())
                    .contains("2 LockBackend beans [first, second]: define exactly one"));
  }

  @Test
  void aUserComparerIsHowACustomComparerIsPluggedIn() {
    WopiLockComparer caseInsensitive = id -> "ci:" + id.toLowerCase(java.util.Locale.ROOT);
    runner
        .withPropertyValues("hostloom.backend=memory", "hostloom.wopi.lock-comparer=not-checked")
        .withBean(WopiLockComparer.class, () -> caseInsensitive)
        .run(
            ctx -> {
              assertThat(ctx).hasNotFailed();
              WopiLockProvider wopi = ctx.getBean(WopiLockProvider.class);
              assertThat(wopi.comparer()).isSameAs(caseInsensitive);
              assertThat(wopi.add("f", "ABC").success()).isTrue();
              assertThat(wopi.refresh("f", "abc").success()).isTrue();
            });
  }

  @Test
  void userBeansOfEveryTypeWin() {
    ManualLockClock clock = new ManualLockClock();
    runner
        .withPropertyValues("hostloom.backend=memory")
        .withBean(LockClock.class, () -> clock)
        .withBean(
            "myLock",
            DistributedLock.class,
            () ->
                DistributedLock.create(
                    io.hostloom.locking.LockingOptions.of("mine"), new InMemoryLockBackend()))
        .withBean(WopiLockProvider.class, () -> WopiLockProvider.create(new InMemoryLockBackend()))
        .run(
            ctx -> {
              assertThat(ctx).hasNotFailed();
              assertThat(ctx).hasSingleBean(DistributedLock.class);
              assertThat((ctx.getBean(DistributedLock.class)).describe().namespace())
                  .isEqualTo("mine");
              assertThat(ctx).hasSingleBean(WopiLockProvider.class);
              assertThat(ctx.getBean(LockClock.class)).isSameAs(clock);
              assertThat(ctx).hasSingleBean(WopiLockProtocol.class);
            });
  }

  @Test
  void theWopiProviderReportsTimesOnTheLockClock() {
    ManualLockClock clock = new ManualLockClock();
    runner
        .withPropertyValues("hostloom.backend=memory")
        .withBean(LockClock.class, () -> clock)
        .run(
            ctx -> {
              WopiLockProvider wopi = ctx.getBean(WopiLockProvider.class);
              wopi.add("f", "L");
              clock.advance(Duration.ofMinutes(31));
              assertThat(wopi.getLock("f")).isEqualTo(Optional.empty());
            });
  }

  @Test
  void theFailureAnalyzerPrintsTheProblemsAndWhatToDo() {
    runner.run(
        ctx -> {
          var analysis =
              new HostLoomConfigurationFailureAnalyzer().analyze(ctx.getStartupFailure());
          assertThat(analysis.getDescription()).contains("hostloom.backend is not set");
          assertThat(analysis.getAction()).contains("hostloom.*");
        });
  }

  static HostLoomConfigurationException rootCause(Throwable t) {
    Throwable c = t;
    while (c != null && !(c instanceof HostLoomConfigurationException)) {
      c = c.getCause();
    }
    assertThat(c).as("a HostLoomConfigurationException in %s", t).isNotNull();
    return (HostLoomConfigurationException) c;
  }
}
