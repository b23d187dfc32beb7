package io.hostloom.jdbc;

import io.hostloom.locking.spi.LockBackend;
import io.hostloom.testkit.TestTiming;
import io.hostloom.testkit.semaphore.PermitViewSuite;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

/**
 * The backend-neutral view contract ({@link PermitViewSuite}) on a real MariaDB, release polling
 * on.
 */
class MariaDbPermitViewTest extends PermitViewSuite {
  private JdbcLockBackend backend;

  @BeforeEach
  void open() {
    backend = MariaDbTestDatabase.backend().releaseNotifications(true).build();
  }

  @AfterEach
  void close() {
    backend.close();
  }

  @Override
  protected LockBackend backend() {
    return backend;
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
