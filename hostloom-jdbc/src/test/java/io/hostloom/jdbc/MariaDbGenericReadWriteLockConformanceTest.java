package io.hostloom.jdbc;

import io.hostloom.locking.spi.LockBackend;
import io.hostloom.testkit.WithoutNativeViews;
import io.hostloom.testkit.rwlock.DistributedReadWriteLockConformanceSuite;

/**
 * The reader-writer lock suite on a real MariaDB on the generic construction; {@link
 * MariaDbReadWriteLockConformanceTest} runs the native views.
 */
class MariaDbGenericReadWriteLockConformanceTest extends DistributedReadWriteLockConformanceSuite {
  @Override
  protected LockBackend newBackend() {
    return WithoutNativeViews.of(MariaDbTestDatabase.backend().build());
  }
}
