package io.hostloom.jdbc;

import javax.sql.DataSource;

/** The native views on a real MariaDB, release polling on. */
class MariaDbNativeViewsTest extends NativeViewsSuite {
  @Override
  protected DataSource pool() {
    return MariaDbTestDatabase.pool();
  }

  @Override
  protected JdbcLockBackend.Builder builder(DataSource dataSource) {
    return MariaDbTestDatabase.backendOn(dataSource).releaseNotifications(true);
  }
}
