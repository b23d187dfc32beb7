package io.hostloom.springboot;

import static io.hostloom.springboot.HostLoomAutoConfigurationTest.ALL;
import static org.assertj.core.api.Assertions.assertThat;

import io.hostloom.azure.AzureBlobLockBackend;
import io.hostloom.jdbc.JdbcLockBackend;
import io.hostloom.redis.RedisLockBackend;
import io.hostloom.springboot.backend.azure.AzureBlobLockBackendBuilderCustomizer;
import io.hostloom.springboot.backend.postgres.JdbcLockBackendBuilderCustomizer;
import io.hostloom.springboot.backend.redis.RedisLockBackendBuilderCustomizer;
import java.lang.reflect.Proxy;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/**
 * One test per backend builder customizer: it runs after the properties (its value wins over the
 * property's, so the order shows) and reaches the built backend. No server is contacted.
 */
class BackendCustomizerTest {
  final ApplicationContextRunner runner =
      new ApplicationContextRunner()
          .withConfiguration(ALL)
          .withPropertyValues("hostloom.locking.namespace=custom");

  @Test
  void aRedisCustomizerChangesTheBuilderAfterTheProperties() {
    runner
        .withPropertyValues(
            "hostloom.backend=redis",
            "hostloom.redis.uri=redis://127.0.0.1:6399",
            "hostloom.redis.key-prefix=from-property:")
        .withBean(
            RedisLockBackendBuilderCustomizer.class,
            () -> b -> b.keyPrefix("from-customizer:").releaseNotifications(false))
        .run(
            ctx ->
                assertThat(ctx.getBean(RedisLockBackend.class).layout().prefix())
                    .isEqualTo("from-customizer:"));
  }

  @Test
  void aRedisKeyPrefixPropertyReachesTheBackendWithoutACustomizer() {
    runner
        .withPropertyValues(
            "hostloom.backend=redis",
            "hostloom.redis.uri=redis://127.0.0.1:6399",
            "hostloom.redis.key-prefix=from-property:")
        .run(
            ctx ->
                assertThat(ctx.getBean(RedisLockBackend.class).layout().prefix())
                    .isEqualTo("from-property:"));
  }

  @Test
  void anAzureCustomizerChangesTheBuilderAfterTheProperties() {
    runner
        .withPropertyValues(
            "hostloom.backend=azure",
            "hostloom.azure.connection-string=UseDevelopmentStorage=true",
            "hostloom.azure.container-name=from-property")
        .withBean(
            AzureBlobLockBackendBuilderCustomizer.class,
            () -> b -> b.containerName("from-customizer").createContainer(false))
        .run(
            ctx ->
                assertThat(ctx.getBean(AzureBlobLockBackend.class).containerName())
                    .isEqualTo("from-customizer"));
  }

  @Test
  void aJdbcCustomizerChangesTheBuilderAfterTheProperties() {
    DataSource unused =
        (DataSource)
            Proxy.newProxyInstance(
                getClass().getClassLoader(),
                new Class<?>[] {DataSource.class},
                (proxy, method, args) -> {
                  throw new UnsupportedOperationException("no database in this test");
                });
    runner
        .withPropertyValues("hostloom.backend=postgres", "hostloom.postgres.table=from_property")
        .withBean(DataSource.class, () -> unused)
        .withBean(JdbcLockBackendBuilderCustomizer.class, () -> b -> b.table("from_customizer"))
        .run(
            ctx ->
                assertThat(ctx.getBean(JdbcLockBackend.class).table().table())
                    .isEqualTo("from_customizer"));
  }
}
