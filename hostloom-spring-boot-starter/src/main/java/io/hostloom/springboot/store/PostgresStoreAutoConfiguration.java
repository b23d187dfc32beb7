package io.hostloom.springboot.store;

import io.hostloom.jdbc.JdbcLockBackend;
import io.hostloom.locking.spi.LockBackend;
import io.hostloom.springboot.HostloomAutoConfiguration;
import io.hostloom.springboot.HostloomProperties;
import io.hostloom.springboot.HostloomSettings;
import io.hostloom.springboot.HostloomWopiAutoConfiguration;
import javax.sql.DataSource;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.autoconfigure.jdbc.DataSourceAutoConfiguration;
import org.springframework.context.annotation.Bean;

/**
 * {@code hostloom.store=postgres}: a {@link JdbcLockBackend} over the application's {@link
 * DataSource} (the one Spring Boot builds from {@code spring.datasource.*}, or your own), with the
 * table {@code hostloom.postgres.schema}.{@code hostloom.postgres.table}. Active only when {@code
 * io.hostloom:hostloom-jdbc} is on the classpath. The backend's threads stop with the context; the
 * DataSource is never closed by it.
 */
@AutoConfiguration(
    after = {HostloomAutoConfiguration.class, DataSourceAutoConfiguration.class},
    before = HostloomWopiAutoConfiguration.class)
@ConditionalOnClass(JdbcLockBackend.class)
@ConditionalOnProperty(prefix = "hostloom", name = "store", havingValue = "postgres")
public class PostgresStoreAutoConfiguration {

  @Bean(name = HostloomSettings.BACKEND_BEAN, destroyMethod = "close")
  @ConditionalOnMissingBean(LockBackend.class)
  JdbcLockBackend hostloomLockBackend(
      HostloomSettings settings, ObjectProvider<DataSource> dataSource) {
    HostloomProperties.Postgres pg = settings.properties().getPostgres();
    return JdbcLockBackend.builder(dataSource.getObject())
        .schema(pg.getSchema())
        .table(pg.getTable())
        .commandTimeout(pg.getCommandTimeout())
        .createTableIfMissing(pg.isCreateTable())
        .build();
  }
}
