package io.hostloom.jdbc;

import io.hostloom.locking.spi.LockBackend;
import io.hostloom.testkit.semaphore.PermitViewSuite;

/**
 * The backend-neutral view contract ({@link PermitViewSuite}) on a real MariaDB, release polling
 * on.
 */
class MariaDbPermitViewTest extends PermitViewSuite {
  @Override
  protected LockBackend newBackend() {
    return MariaDbReadWriteViewsTest.open();
  }

  @Override
  protected void awaitWaitsWatching(LockBackend instance) {
    MariaDbReadWriteViewsTest.awaitFirstPolls(instance);
  }
}
