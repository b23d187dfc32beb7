package io.hostloom.springboot.backend.mariadb;

import io.hostloom.jdbc.JdbcLockBackend;
import io.hostloom.jdbc.SqlDialect;
import io.hostloom.locking.spi.LockBackend;
import io.hostloom.springboot.HostLoomAutoConfiguration;
import io.hostloom.springboot.HostLoomSettings;
import io.hostloom.springboot.HostLoomWopiAutoConfiguration;
import io.hostloom.springboot.backend.ConditionalOnBackend;
import io.hostloom.springboot.backend.postgres.JdbcLockBackendBuilderCustomizer;
import javax.sql.DataSource;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;

/**
 * {@code hostloom.backend=mariadb}: a MariaDB {@link JdbcLockBackend} ({@link SqlDialect#MARIADB})
 * over the application's {@link DataSource}, with the table {@code hostloom.mariadb.table} in
 * {@code hostloom.mariadb.schema} (the database; {@code public}: the connection's own). Every
 * {@link JdbcLockBackendBuilderCustomizer} bean changes the builder last. The backend's threads
 * stop with the context; the DataSource is never closed by it.
 */
@AutoConfiguration(
    after = HostLoomAutoConfiguration.class,
    afterName = {
      "org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration",
      "org.springframework.boot.autoconfigure.jdbc.DataSourceAutoConfiguration"
    },
    before = HostLoomWopiAutoConfiguration.class)
@ConditionalOnClass(JdbcLockBackend.class)
@ConditionalOnBackend("mariadb")
@EnableConfigurationProperties(MariaDbBackendProperties.class)
public class MariaDbBackendAutoConfiguration {

  @Bean(name = HostLoomSettings.BACKEND_BEAN, destroyMethod = "close")
  @ConditionalOnMissingBean(LockBackend.class)
  JdbcLockBackend hostloomLockBackend(
      HostLoomSettings settings,
      MariaDbBackendProperties mariadb,
      ObjectProvider<DataSource> dataSource,
      ObjectProvider<JdbcLockBackendBuilderCustomizer> customizers) {
    JdbcLockBackend.Builder b =
        JdbcLockBackend.builder(dataSource.getObject())
            .dialect(SqlDialect.MARIADB)
            .schema(mariadb.getSchema())
            .table(mariadb.getTable())
            .commandTimeout(mariadb.getCommandTimeout())
            .executorThreads(mariadb.getExecutorThreads())
            .maxQueuedCalls(mariadb.getMaxQueuedCalls())
            .createTableIfMissing(mariadb.isCreateTable())
            .releaseNotifications(mariadb.isReleasePolling());
    customizers.orderedStream().forEach(c -> c.customize(b));
    return b.build();
  }
}
