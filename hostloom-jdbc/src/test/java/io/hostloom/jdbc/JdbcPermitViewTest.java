package io.hostloom.jdbc;

import io.hostloom.locking.spi.LockBackend;
import io.hostloom.testkit.semaphore.PermitViewSuite;

/**
 * The backend-neutral view contract ({@link PermitViewSuite}) on a real PostgreSQL, release
 * notifications on.
 */
class JdbcPermitViewTest extends PermitViewSuite {
  @Override
  protected LockBackend newBackend() {
    return JdbcReadWriteViewsTest.open();
  }

  @Override
  protected void awaitSignalReady(LockBackend instance) {
    JdbcReadWriteViewsTest.awaitListening(instance);
  }
}
