package io.hostloom.springboot.backend.mysql;

import io.hostloom.jdbc.JdbcLockBackend;
import io.hostloom.jdbc.SqlDialect;
import io.hostloom.locking.spi.LockBackend;
import io.hostloom.springboot.HostloomAutoConfiguration;
import io.hostloom.springboot.HostloomSettings;
import io.hostloom.springboot.HostloomWopiAutoConfiguration;
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
 * {@code hostloom.backend=mysql}: a MariaDB {@link JdbcLockBackend} ({@link SqlDialect#MARIADB})
 * over the application's {@link DataSource}, with the table {@code hostloom.mysql.table} in {@code
 * hostloom.mysql.schema} (the database; {@code public}: the connection's own). Every {@link
 * JdbcLockBackendBuilderCustomizer} bean changes the builder last. The backend's threads stop with
 * the context; the DataSource is never closed by it.
 */
@AutoConfiguration(
    after = HostloomAutoConfiguration.class,
    afterName = {
      "org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration",
      "org.springframework.boot.autoconfigure.jdbc.DataSourceAutoConfiguration"
    },
    before = HostloomWopiAutoConfiguration.class)
@ConditionalOnClass(JdbcLockBackend.class)
@ConditionalOnBackend("mysql")
@EnableConfigurationProperties(MysqlBackendProperties.class)
public class MysqlBackendAutoConfiguration {

  @Bean(name = HostloomSettings.BACKEND_BEAN, destroyMethod = "close")
  @ConditionalOnMissingBean(LockBackend.class)
  JdbcLockBackend hostloomLockBackend(
      HostloomSettings settings,
      MysqlBackendProperties mysql,
      ObjectProvider<DataSource> dataSource,
      ObjectProvider<JdbcLockBackendBuilderCustomizer> customizers) {
    JdbcLockBackend.Builder b =
        JdbcLockBackend.builder(dataSource.getObject())
            .dialect(SqlDialect.MARIADB)
            .schema(mysql.getSchema())
            .table(mysql.getTable())
            .commandTimeout(mysql.getCommandTimeout())
            .executorThreads(mysql.getExecutorThreads())
            .maxQueuedCalls(mysql.getMaxQueuedCalls())
            .createTableIfMissing(mysql.isCreateTable())
            .releaseNotifications(mysql.isReleasePolling());
    customizers.orderedStream().forEach(c -> c.customize(b));
    return b.build();
  }
}
