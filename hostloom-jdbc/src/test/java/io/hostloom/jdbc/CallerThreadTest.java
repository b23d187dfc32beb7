package io.hostloom.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import io.hostloom.locking.DistributedLock;
import io.hostloom.locking.LockHandle;
import io.hostloom.locking.LockOptions;
import io.hostloom.locking.LockingOptions;
import io.hostloom.locking.spi.support.CallerWaits;
import io.hostloom.wopi.WopiLockProvider;
import java.io.PrintWriter;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Logger;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Where statements run (on the shared PostgreSQL): on the caller's thread when it blocks on the
 * answer anyway ({@link CallerWaits}), on the backend's workers otherwise. Recorded by the thread
 * that borrows each connection.
 */
class CallerThreadTest {
  private final List<Thread> borrowers = new CopyOnWriteArrayList<>();
  private JdbcLockBackend backend;
  private DistributedLock lock;

  @BeforeEach
  void setUp() {
    backend = JdbcLockBackend.builder(new BorrowerRecording(TestDatabase.pool())).build();
    lock = DistributedLock.create(LockingOptions.of("caller-thread"), backend);
  }

  @AfterEach
  void tearDown() {
    lock.close();
    backend.close();
  }

  @Test
  void blockingAcquireAndCloseRunOnTheCallersThread() {
    LockHandle h = lock.tryAcquire(key()).orElseThrow();
    h.close();
    assertThat(borrowers).containsExactly(Thread.currentThread(), Thread.currentThread());
    boolean heldInAction = lock.executeWithLock(key(), LockHandle::isHeld);
    assertThat(heldInAction).isTrue();
    assertThat(borrowers).hasSize(4).allMatch(t -> t == Thread.currentThread());
  }

  @Test
  void wopiCallsRunOnTheCallersThread() {
    WopiLockProvider wopi = WopiLockProvider.create(backend);
    String file = key();
    assertThat(wopi.add(file, "lock-a").success()).isTrue();
    assertThat(wopi.getLock(file)).isPresent();
    assertThat(wopi.remove(file, "lock-a").success()).isTrue();
    assertThat(borrowers).hasSize(3).allMatch(t -> t == Thread.currentThread());
  }

  @Test
  void asyncFormsRunOnAWorker() {
    LockHandle h = lock.tryAcquireAsync(key()).join().orElseThrow();
    h.closeAsync().join();
    assertThat(borrowers).hasSize(2).allMatch(CallerThreadTest::isWorker);
  }

  @Test
  void aMaxWaitShorterThanTheCommandTimeoutUsesAWorker() {
    LockOptions shortWait = LockOptions.builder().maxWait(Duration.ofSeconds(1)).build();
    LockHandle h = lock.acquire(key(), shortWait); // the command timeout is 5 s
    assertThat(borrowers).hasSize(1).allMatch(CallerThreadTest::isWorker);
    h.close();
    assertThat(borrowers.get(1)).isSameAs(Thread.currentThread());
  }

  @Test
  void anInterruptedCallerUsesAWorker() {
    long previous = CallerWaits.begin(CallerWaits.UNBOUNDED);
    try {
      Thread.currentThread().interrupt();
      var read = backend.read(key());
      assertThat(Thread.interrupted()).isTrue(); // cleared before the join below
      assertThat(read.join()).isEmpty();
    } finally {
      CallerWaits.end(previous);
    }
    assertThat(borrowers).hasSize(1).allMatch(CallerThreadTest::isWorker);
  }

  @Test
  void aWarmUpRunsOnAWorkerEvenWhenTheCallerWaits() {
    long previous = CallerWaits.begin(CallerWaits.UNBOUNDED);
    CompletableFuture<Void> warmUp;
    try {
      warmUp = backend.warmUp();
    } finally {
      CallerWaits.end(previous);
    }
    warmUp.join();
    assertThat(borrowers).hasSize(1).allMatch(CallerThreadTest::isWorker);
  }

  private static boolean isWorker(Thread t) {
    return t.getName().startsWith("hostloom-jdbc-worker-");
  }

  private static String key() {
    return "caller-thread-" + UUID.randomUUID();
  }

  /** Records the thread of each {@code getConnection}. */
  private final class BorrowerRecording implements DataSource {
    private final DataSource delegate;

    BorrowerRecording(DataSource delegate) {
      this.delegate = delegate;
    }

    @Override
    public Connection getConnection() throws SQLException {
      borrowers.add(Thread.currentThread());
      return delegate.getConnection();
    }

    @Override
    public Connection getConnection(String user, String password) throws SQLException {
      throw new SQLFeatureNotSupportedException("not used by the backend");
    }

    @Override
    public PrintWriter getLogWriter() throws SQLException {
      return delegate.getLogWriter();
    }

    @Override
    public void setLogWriter(PrintWriter out) throws SQLException {
      delegate.setLogWriter(out);
    }

    @Override
    public void setLoginTimeout(int seconds) throws SQLException {
      delegate.setLoginTimeout(seconds);
    }

    @Override
    public int getLoginTimeout() throws SQLException {
      return delegate.getLoginTimeout();
    }

    @Override
    public Logger getParentLogger() throws SQLFeatureNotSupportedException {
      return delegate.getParentLogger();
    }

    @Override
    public <T> T unwrap(Class<T> iface) throws SQLException {
      return delegate.unwrap(iface);
    }

    @Override
    public boolean isWrapperFor(Class<?> iface) throws SQLException {
      return delegate.isWrapperFor(iface);
    }
  }
}
