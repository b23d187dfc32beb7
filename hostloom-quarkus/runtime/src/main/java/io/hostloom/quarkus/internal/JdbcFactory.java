package io.hostloom.quarkus.internal;

import io.hostloom.jdbc.JdbcLockBackend;
import io.hostloom.jdbc.SqlDialect;
import io.hostloom.locking.spi.LockBackend;
import io.hostloom.quarkus.HostLoomConfig;
import javax.sql.DataSource;

/**
 * {@code hostloom.backend=postgres|mariadb}: a {@link JdbcLockBackend} over the application's
 * default DataSource (Agroal's, from {@code quarkus.datasource.*}); the DataSource is not closed by
 * it.
 */
final class JdbcFactory {
  private JdbcFactory() {}

  static LockBackend create(
      HostLoomConfig.Jdbc c, Object dataSource, boolean mariadb, boolean releasePolling) {
    JdbcLockBackend.Builder b =
        JdbcLockBackend.builder((DataSource) dataSource).createTableIfMissing(c.createTable());
    if (mariadb) {
      b.dialect(SqlDialect.MARIADB).releaseNotifications(releasePolling);
    }
    c.schema().ifPresent(b::schema);
    c.table().ifPresent(b::table);
    c.commandTimeout().ifPresent(b::commandTimeout);
    c.executorThreads().ifPresent(b::executorThreads);
    c.maxQueuedCalls().ifPresent(b::maxQueuedCalls);
    return b.build();
  }
}
