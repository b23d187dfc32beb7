package io.hostloom.springboot;

import static io.hostloom.springboot.HostloomAutoConfigurationTest.ALL;
import static io.hostloom.springboot.HostloomAutoConfigurationTest.rootCause;
import static org.assertj.core.api.Assertions.assertThat;

import io.hostloom.locking.memory.InMemoryLockBackend;
import io.hostloom.locking.spi.LockBackend;
import io.hostloom.redis.RedisLockBackend;
import io.hostloom.springboot.backend.BackendProperty;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

/**
 * {@code hostloom.store}, the deprecated old name of {@code hostloom.backend}: read when {@code
 * hostloom.backend} is not set, with one warning; a start-up failure naming both when the two
 * choose different backends.
 */
@ExtendWith(OutputCaptureExtension.class)
class DeprecatedBackendAliasTest {
  static final String WARNING = "hostloom.store is deprecated";

  final ApplicationContextRunner runner =
      new ApplicationContextRunner()
          .withConfiguration(ALL)
          .withPropertyValues("hostloom.locking.namespace=alias");

  @Test
  void theOldNameAloneStillChoosesTheBackendAndWarnsOnce(CapturedOutput output) {
    runner
        .withPropertyValues("hostloom.store=memory")
        .run(
            ctx -> {
              assertThat(ctx).hasNotFailed();
              assertThat(ctx).hasSingleBean(InMemoryLockBackend.class);
              HostloomSettings settings = ctx.getBean(HostloomSettings.class);
              assertThat(settings.backend()).get().extracting(b -> b.name()).isEqualTo("memory");
              assertThat(settings.warnings())
                  .containsExactly(
                      "hostloom.store is deprecated: set hostloom.backend=memory instead (it is"
                          + " still read while hostloom.backend is not set)");
            });
    assertThat(occurrences(output.getAll(), WARNING)).isOne();
  }

  @Test
  void theOldNameReachesABackendOfAModuleThroughItsCondition(CapturedOutput output) {
    runner
        .withPropertyValues("hostloom.store=Redis ", "hostloom.redis.uri=redis://127.0.0.1:6399")
        .run(
            ctx -> {
              assertThat(ctx).hasNotFailed();
              assertThat(ctx.getBean(LockBackend.class)).isInstanceOf(RedisLockBackend.class);
            });
    assertThat(occurrences(output.getAll(), WARNING)).isOne();
  }

  @Test
  void aBlankNewNameLeavesTheOldOneInCharge() {
    runner
        .withPropertyValues("hostloom.backend=", "hostloom.store=memory")
        .run(ctx -> assertThat(ctx).hasSingleBean(InMemoryLockBackend.class));
  }

  @Test
  void bothNamesChoosingTheSameBackendWorkWithOneWarningToRemoveTheOldOne(CapturedOutput output) {
    runner
        .withPropertyValues("hostloom.backend=memory", "hostloom.store=MEMORY")
        .run(
            ctx -> {
              assertThat(ctx).hasNotFailed();
              assertThat(ctx).hasSingleBean(InMemoryLockBackend.class);
              assertThat(ctx.getBean(HostloomSettings.class).warnings())
                  .containsExactly(
                      "hostloom.store is deprecated and repeats hostloom.backend: remove it");
            });
    assertThat(occurrences(output.getAll(), WARNING)).isOne();
  }

  @Test
  void bothNamesChoosingDifferentBackendsFailStartUpNamingBoth() {
    runner
        .withPropertyValues("hostloom.backend=memory", "hostloom.store=redis")
        .run(
            ctx -> {
              assertThat(ctx).hasFailed();
              assertThat(rootCause(ctx.getStartupFailure()).problems())
                  .containsExactly(
                      "hostloom.backend=memory and hostloom.store=redis choose different backends:"
                          + " hostloom.store is the deprecated old name of hostloom.backend,"
                          + " remove it");
            });
  }

  @Test
  void aConflictBuildsNeitherBackendEvenWithAnApplicationBackend() {
    LockBackend mine = new InMemoryLockBackend();
    runner
        .withPropertyValues("hostloom.backend=memory", "hostloom.store=redis")
        .withBean("myBackend", LockBackend.class, () -> mine)
        .run(
            ctx ->
                assertThat(rootCause(ctx.getStartupFailure()).problems())
                    .singleElement()
                    .asString()
                    .startsWith("hostloom.backend=memory and hostloom.store=redis"));
  }

  @Test
  void aBadValueOfTheOldNameIsReportedUnderTheOldName() {
    runner
        .withPropertyValues("hostloom.store=cassandra")
        .run(
            ctx ->
                assertThat(rootCause(ctx.getStartupFailure()).problems())
                    .containsExactly(
                        "hostloom.store must be one of memory, redis, azure, postgres, etcd,"
                            + " zookeeper, mysql but was 'cassandra'"));
  }

  @Test
  void theChoiceIgnoresCaseAndBlanksAndPrefersTheNewName() {
    assertThat(new BackendProperty(" Redis ", null).name()).isEqualTo(Optional.of("redis"));
    assertThat(new BackendProperty(null, "etcd").name()).isEqualTo(Optional.of("etcd"));
    assertThat(new BackendProperty(null, "etcd").property()).isEqualTo("hostloom.store");
    assertThat(new BackendProperty("  ", "etcd").property()).isEqualTo("hostloom.store");
    assertThat(new BackendProperty("etcd", "ETCD").conflict()).isEmpty();
    assertThat(new BackendProperty("etcd", "redis").name()).isEmpty();
    assertThat(new BackendProperty(null, null).name()).isEmpty();
    assertThat(new BackendProperty("redis", null).deprecationWarning()).isEmpty();
  }

  private static int occurrences(String text, String part) {
    int n = 0;
    for (int i = text.indexOf(part); i >= 0; i = text.indexOf(part, i + 1)) {
      n++;
    }
    return n;
  }
}
