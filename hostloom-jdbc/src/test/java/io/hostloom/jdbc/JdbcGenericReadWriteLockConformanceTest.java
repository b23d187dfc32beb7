package io.hostloom.jdbc;

import io.hostloom.locking.spi.LockBackend;
import io.hostloom.testkit.WithoutNativeViews;
import io.hostloom.testkit.rwlock.DistributedReadWriteLockConformanceSuite;

/**
 * The reader-writer lock suite on a real PostgreSQL on the generic construction (write key, reader
 * slots, token key), which a backend that hides the native views gets; {@link
 * JdbcReadWriteLockConformanceTest} runs the native one.
 */
class JdbcGenericReadWriteLockConformanceTest extends DistributedReadWriteLockConformanceSuite {
  @Override
  protected LockBackend newBackend() {
    return WithoutNativeViews.of(TestDatabase.backend().build());
  }
}
