package io.hostloom.jdbc;

import io.hostloom.locking.spi.LockBackend;
import io.hostloom.testkit.TestTiming;
import io.hostloom.testkit.rwlock.ReadWriteViewsSuite;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

/**
 * The backend-neutral view contract ({@link ReadWriteViewsSuite}) on a real PostgreSQL, release
 * notifications on.
 */
class JdbcReadWriteViewsTest extends ReadWriteViewsSuite {
  private JdbcLockBackend backend;
  private JdbcLockBackend peer;

  @BeforeEach
  void open() {
    backend =
        JdbcLockBackend.builder(TestDatabase.pool())
            .releaseNotifications(true)
            .listenerDataSource(TestDatabase.listenerSource())
            .build();
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
      peer =
          JdbcLockBackend.builder(TestDatabase.pool())
              .releaseNotifications(true)
              .listenerDataSource(TestDatabase.listenerSource())
              .build();
    }
    return peer;
  }

  @Override
  protected void awaitSignalReady(LockBackend instance) {
    TestTiming.await(
        "listening", ((JdbcLockBackend) instance)::isListeningForReleases, Duration.ofSeconds(20));
  }
}
