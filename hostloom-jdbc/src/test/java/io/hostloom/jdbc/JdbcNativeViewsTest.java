package io.hostloom.jdbc;

import io.hostloom.testkit.TestTiming;
import javax.sql.DataSource;

/** The native views on a real PostgreSQL, release notifications on. */
class JdbcNativeViewsTest extends NativeViewsSuite {
  @Override
  protected DataSource pool() {
    return TestDatabase.pool();
  }

  @Override
  protected JdbcLockBackend.Builder builder(DataSource dataSource) {
    return JdbcLockBackend.builder(dataSource)
        .releaseNotifications(true)
        .listenerDataSource(TestDatabase.listenerSource());
  }

  @Override
  protected void pauseForListener(JdbcLockBackend backend) {
    TestTiming.await("listening", backend::isListeningForReleases, WAIT);
  }
}
