package io.hostloom.jdbc;

import io.hostloom.locking.spi.LockBackend;
import io.hostloom.testkit.TestTiming;
import io.hostloom.testkit.semaphore.PermitViewSuite;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

/**
 * The backend-neutral view contract ({@link PermitViewSuite}) on a real PostgreSQL, release
 * notifications on.
 */
class JdbcPermitViewTest extends PermitViewSuite {
  private JdbcLockBackend backend;

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
  }

  @Override
  protected LockBackend backend() {
    return backend;
  }

  @Override
  protected void awaitSignalReady(LockBackend instance) {
    TestTiming.await(
        "listening", ((JdbcLockBackend) instance)::isListeningForReleases, Duration.ofSeconds(20));
  }
}
