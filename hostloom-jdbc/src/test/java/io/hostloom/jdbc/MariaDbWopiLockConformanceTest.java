package io.hostloom.jdbc;

import io.hostloom.locking.spi.LockBackend;
import io.hostloom.testkit.TestTiming;
import io.hostloom.testkit.wopi.WopiLockConformanceSuite;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;

/**
 * The WOPI lock conformance suite against a real MariaDB server, with the suite's short expiry
 * waited out in real time on the database's clock. Each host instance is its own backend.
 */
class MariaDbWopiLockConformanceTest extends WopiLockConformanceSuite {
  private final List<JdbcLockBackend> created = new ArrayList<>();

  @Override
  protected LockBackend newBackend() {
    JdbcLockBackend backend = MariaDbTestDatabase.backend().build();
    synchronized (created) {
      created.add(backend);
    }
    return backend;
  }

  /** One second: the database answers in milliseconds, so a few calls are a small fraction. */
  @Override
  protected Duration expiry() {
    return TestTiming.scaled(Duration.ofSeconds(1));
  }

  @AfterEach
  void closeBackends() {
    synchronized (created) {
      created.forEach(JdbcLockBackend::close);
      created.clear();
    }
  }
}
