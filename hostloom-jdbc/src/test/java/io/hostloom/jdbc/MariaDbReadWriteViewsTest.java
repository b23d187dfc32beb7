package io.hostloom.jdbc;

import io.hostloom.locking.spi.LockBackend;
import io.hostloom.testkit.TestTiming;
import io.hostloom.testkit.rwlock.ReadWriteViewsSuite;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

/**
 * The backend-neutral view contract ({@link ReadWriteViewsSuite}) on a real MariaDB, release
 * polling on.
 */
class MariaDbReadWriteViewsTest extends ReadWriteViewsSuite {
  private JdbcLockBackend backend;
  private JdbcLockBackend peer;

  @BeforeEach
  void open() {
    backend = MariaDbTestDatabase.backend().releaseNotifications(true).build();
  }

  @AfterEach
  void close() {
    backend.close();
    if (peer != null) {
      peer.close();
    }
  }

  @Override
  protected LockBackend backend() {
    return backend;
  }

  @Override
  protected LockBackend otherBackend() {
    if (peer == null) {
      peer = MariaDbTestDatabase.backend().releaseNotifications(true).build();
    }
    return peer;
  }

  /**
   * A release before a wait's first poll answered would be its baseline (README: release signal).
   */
  @Override
  protected void awaitWaitsWatching(LockBackend instance) {
    TestTiming.await(
        "first polls answered",
        () -> ((JdbcLockBackend) instance).unobservedReleaseWaits() == 0,
        Duration.ofSeconds(10));
  }
}
