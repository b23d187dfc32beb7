package io.hostloom.jdbc;

import io.hostloom.locking.spi.LockBackend;
import io.hostloom.testkit.TestTiming;
import io.hostloom.testkit.rwlock.ReadWriteViewsSuite;
import java.time.Duration;

/**
 * The backend-neutral view contract ({@link ReadWriteViewsSuite}) on a real MariaDB, release
 * polling on.
 */
class MariaDbReadWriteViewsTest extends ReadWriteViewsSuite {
  static JdbcLockBackend open() {
    return MariaDbTestDatabase.backend().releaseNotifications(true).build();
  }

  /**
   * A release before a wait's first poll answered would be its baseline (README: release signal).
   */
  static void awaitFirstPolls(LockBackend instance) {
    TestTiming.await(
        "first polls answered",
        () -> ((JdbcLockBackend) instance).unobservedReleaseWaits() == 0,
        Duration.ofSeconds(10));
  }

  @Override
  protected LockBackend newBackend() {
    return open();
  }

  @Override
  protected void awaitWaitsWatching(LockBackend instance) {
    awaitFirstPolls(instance);
  }
}
