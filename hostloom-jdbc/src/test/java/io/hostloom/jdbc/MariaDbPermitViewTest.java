package io.hostloom.jdbc;

import io.hostloom.locking.spi.LockBackend;
import io.hostloom.testkit.semaphore.PermitViewSuite;
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
}
