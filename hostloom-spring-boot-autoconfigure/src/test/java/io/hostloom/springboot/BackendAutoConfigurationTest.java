package io.hostloom.springboot;

import static io.hostloom.springboot.HostLoomAutoConfigurationTest.ALL;
import static io.hostloom.springboot.HostLoomAutoConfigurationTest.rootCause;
import static org.assertj.core.api.Assertions.assertThat;

import io.hostloom.azure.AzureBlobLockBackend;
import io.hostloom.jdbc.JdbcLockBackend;
import io.hostloom.jdbc.SqlDialect;
import io.hostloom.locking.spi.LockBackend;
import io.hostloom.redis.RedisLockBackend;
import io.hostloom.wopi.WopiLockProvider;
import java.lang.reflect.Proxy;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/**
 * The backend auto-configurations: each builds its backend from its settings (no server is
 * contacted while building), validates them with the others, and stays off without its module.
 */
class BackendAutoConfigurationTest {
  final ApplicationContextRunner runner =
      new ApplicationContextRunner()
          .withConfiguration(ALL)
          .withPropertyValues("hostloom.locking.namespace=backends");

  @Test
  void redisBuildsARedisBackendFromItsUri() {
    runner
        .withPropertyValues(
            "hostloom.backend=redis",
            "hostloom.redis.uri=redis://127.0.0.1:6399",
            "hostloom.redis.command-timeout=2s")
        .run(
            ctx -> {
              assertThat(ctx).hasNotFailed();
              assertThat(ctx).hasSingleBean(RedisLockBackend.class);
              assertThat(ctx.getBean(LockBackend.class)).isInstanceOf(RedisLockBackend.class);
              assertThat(ctx).hasSingleBean(WopiLockProvider.class);
            });
  }

  @Test
  void redisBackendRejectsAUriOfAnotherScheme() {
    runner
        .withPropertyValues("hostloom.backend=redis", "hostloom.redis.uri=http://localhost:6379")
        .run(
            ctx ->
                assertThat(rootCause(ctx.getStartupFailure()).problems())
                    .containsExactly(
                        "hostloom.redis.uri must start with redis://, rediss:// or"
                            + " redis-sentinel:// but was 'http://'"));
  }

  @Test
  void aBackendWhoseModuleIsMissingIsNamedWithTheArtifactToAdd() {
    runner
        .withClassLoader(new FilteredClassLoader(RedisLockBackend.class))
        .withPropertyValues("hostloom.backend=redis", "hostloom.redis.uri=redis://localhost")
        .run(
            ctx ->
                assertThat(rootCause(ctx.getStartupFailure()).problems())
                    .containsExactly(
                        "hostloom.backend=redis needs io.hostloom:hostloom-redis on the classpath"
                            + " (add it as a dependency)"));
  }

  @Test
  void azureBuildsAnAzureBackendFromAConnectionString() {
    runner
        .withPropertyValues(
            "hostloom.backend=azure",
            "hostloom.azure.connection-string=UseDevelopmentStorage=true",
            "hostloom.azure.container-name=my-locks")
        .run(
            ctx -> {
              assertThat(ctx).hasNotFailed();
              AzureBlobLockBackend b = ctx.getBean(AzureBlobLockBackend.class);
              assertThat(b.containerName()).isEqualTo("my-locks");
              assertThat(b.wopiExpiry()).isEqualTo(java.time.Duration.ofMinutes(30));
            });
  }

  @Test
  void azureBackendNeedsExactlyOneEndpointAndAValidContainer() {
    runner
        .withPropertyValues(
            "hostloom.backend=azure",
            "hostloom.azure.connection-string=UseDevelopmentStorage=true",
            "hostloom.azure.service-uri=https://acct.blob.core.windows.net",
            "hostloom.azure.container-name=Bad_Name")
        .run(
            ctx -> {
              HostLoomConfigurationException e = rootCause(ctx.getStartupFailure());
              assertThat(e.problems()).hasSize(2);
              assertThat(e.getMessage())
                  .contains("are both set: set exactly one")
                  .contains("hostloom.azure.container-name must be 3 to 63")
                  .contains("'Bad_Name'");
            });
    runner
        .withPropertyValues("hostloom.backend=azure")
        .run(
            ctx ->
                assertThat(rootCause(ctx.getStartupFailure()).getMessage())
                    .contains("hostloom.azure.connection-string or hostloom.azure.service-uri is"));
  }

  @Test
  void postgresBackendUsesTheApplicationsDataSource() {
    runner
        .withPropertyValues(
            "hostloom.backend=postgres",
            "hostloom.postgres.schema=locks",
            "hostloom.postgres.table=t1")
        .withBean(DataSource.class, BackendAutoConfigurationTest::untouchedDataSource)
        .run(
            ctx -> {
              assertThat(ctx).hasNotFailed();
              JdbcLockBackend b = ctx.getBean(JdbcLockBackend.class);
              assertThat(b.table().schema()).isEqualTo("locks");
              assertThat(b.table().table()).isEqualTo("t1");
            });
  }

  @Test
  void postgresBackendWithoutADataSourceOrWithBadNamesFailsWithEveryProblem() {
    runner
        .withPropertyValues(
            "hostloom.backend=postgres",
            "hostloom.postgres.table=drop table x;",
            "hostloom.postgres.command-timeout=0s")
        .run(
            ctx -> {
              HostLoomConfigurationException e = rootCause(ctx.getStartupFailure());
              assertThat(e.problems()).hasSize(3);
              assertThat(e.getMessage())
                  .contains("hostloom.backend=postgres needs a javax.sql.DataSource bean")
                  .contains("hostloom.postgres.table must be an unquoted SQL identifier")
                  .contains("hostloom.postgres.command-timeout must be positive");
            });
  }

  @Test
  void mariadbBuildsAMariaDbBackendOnTheApplicationsDataSource() {
    runner
        .withPropertyValues(
            "hostloom.backend=mariadb",
            "hostloom.mariadb.table=t2",
            "hostloom.mariadb.release-polling=true")
        .withBean(DataSource.class, BackendAutoConfigurationTest::untouchedDataSource)
        .run(
            ctx -> {
              assertThat(ctx).hasNotFailed();
              JdbcLockBackend b = ctx.getBean(JdbcLockBackend.class);
              assertThat(b.dialect()).isEqualTo(SqlDialect.MARIADB);
              assertThat(b.name()).isEqualTo("mariadb");
              assertThat(b.table().table()).isEqualTo("t2");
              assertThat(b.isListeningForReleases()).as("release polling on").isTrue();
            });
  }

  @Test
  void mariadbBackendWithoutADataSourceOrWithBadNamesFailsWithEveryProblem() {
    runner
        .withPropertyValues(
            "hostloom.backend=mariadb",
            "hostloom.mariadb.schema=a-b",
            "hostloom.mariadb.executor-threads=0")
        .run(
            ctx -> {
              HostLoomConfigurationException e = rootCause(ctx.getStartupFailure());
              assertThat(e.problems()).hasSize(3);
              assertThat(e.getMessage())
                  .contains("hostloom.backend=mariadb needs a javax.sql.DataSource bean")
                  .contains("hostloom.mariadb.schema must be an unquoted SQL identifier")
                  .contains("hostloom.mariadb.executor-threads must be positive");
            });
  }

  /** A DataSource that fails the test if the backend connects while being built. */
  static DataSource untouchedDataSource() {
    return (DataSource)
        Proxy.newProxyInstance(
            BackendAutoConfigurationTest.class.getClassLoader(),
            new Class<?>[] {DataSource.class},
            (proxy, method, args) -> {
              if (method.getName().equals("toString")) {
                return "untouched";
              }
              throw new AssertionError("the backend must not connect while being built: " + method);
            });
  }
}
