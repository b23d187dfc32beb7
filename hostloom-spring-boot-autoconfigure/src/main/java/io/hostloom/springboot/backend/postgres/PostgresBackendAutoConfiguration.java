package io.hostloom.springboot.backend.postgres;

import io.hostloom.jdbc.JdbcLockBackend;
import io.hostloom.locking.spi.LockBackend;
import io.hostloom.springboot.HostLoomAutoConfiguration;
import io.hostloom.springboot.HostLoomSettings;
import io.hostloom.springboot.HostLoomWopiAutoConfiguration;
import io.hostloom.springboot.backend.ConditionalOnBackend;
import javax.sql.DataSource;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;

/**
 * {@code hostloom.backend=postgres}: a {@link JdbcLockBackend} over the application's {@link
 * DataSource} (the one Spring Boot builds from {@code spring.datasource.*}, or your own), with the
 * table {@code hostloom.postgres.schema}.{@code hostloom.postgres.table}. Active only when {@code
 * io.hostloom:hostloom-jdbc} is on the classpath; every {@link JdbcLockBackendBuilderCustomizer}
 * bean changes the builder last. The backend's threads stop with the context; the DataSource is
 * never closed by it.
 */
@AutoConfiguration(
    after = HostLoomAutoConfiguration.class,
    // by name, both Boot generations (Boot 4 moved it to spring-boot-jdbc)
    afterName = {
      "org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration",
      "org.springframework.boot.autoconfigure.jdbc.DataSourceAutoConfiguration"
    },
    before = HostLoomWopiAutoConfiguration.class)
@ConditionalOnClass(JdbcLockBackend.class)
@ConditionalOnBackend("postgres")
@EnableConfigurationProperties(PostgresBackendProperties.class)
public class PostgresBackendAutoConfiguration {

  @Bean(name = HostLoomSettings.BACKEND_BEAN, destroyMethod = "close")
  @ConditionalOnMissingBean(LockBackend.class)
  JdbcLockBackend hostloomLockBackend(
      HostLoomSettings settings,
      PostgresBackendProperties pg,
      ObjectProvider<DataSource> dataSource,
      ObjectProvider<JdbcLockBackendBuilderCustomizer> customizers) {
    JdbcLockBackend.Builder b =
        JdbcLockBackend.builder(dataSource.getObject())
            .schema(pg.getSchema())
            .table(pg.getTable())
            .commandTimeout(pg.getCommandTimeout())
            .executorThreads(pg.getExecutorThreads())
            .maxQueuedCalls(pg.getMaxQueuedCalls())
            .createTableIfMissing(pg.isCreateTable());
    customizers.orderedStream().forEach(c -> c.customize(b));
    return b.build();
  }
}
