package io.hostloom.jdbc;

import io.hostloom.locking.spi.LockBackend;
import io.hostloom.testkit.TestTiming;
import io.hostloom.testkit.rwlock.ReadWriteViewsSuite;
import java.time.Duration;

/**
 * The backend-neutral view contract ({@link ReadWriteViewsSuite}) on a real PostgreSQL, release
 * notifications on.
 */
class JdbcReadWriteViewsTest extends ReadWriteViewsSuite {
  static JdbcLockBackend open() {
    return JdbcLockBackend.builder(TestDatabase.pool())
        .releaseNotifications(true)
        .listenerDataSource(TestDatabase.listenerSource())
        .build();
  }

  static void awaitListening(LockBackend instance) {
    TestTiming.await(
        "listening", ((JdbcLockBackend) instance)::isListeningForReleases, Duration.ofSeconds(20));
  }

  @Override
  protected LockBackend newBackend() {
    return open();
  }

  @Override
  protected void awaitSignalReady(LockBackend instance) {
    awaitListening(instance);
  }
}
