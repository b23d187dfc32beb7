package io.hostloom.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariDataSource;
import io.hostloom.locking.LockFailureKind;
import io.hostloom.locking.spi.LockBackend;
import io.hostloom.locking.spi.LockBackendException;
import io.hostloom.testkit.TestTiming;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.concurrent.CompletionException;
import org.junit.jupiter.api.Test;

/**
 * {@link JdbcLockBackend#warmUp()} on the shared PostgreSQL: the testkit's suite, plus the pool's
 * first connection it opens, and a missing table, which fails it as it would the first operation.
 */
class PostgresWarmUpTest extends JdbcWarmUpSuite {
  private static final Duration BOUND = Duration.ofSeconds(30);

  @Override
  protected InetSocketAddress serverAddress() {
    return new InetSocketAddress("127.0.0.1", TestDatabase.server().port());
  }

  @Override
  protected String jdbcUrl(InetSocketAddress at) {
    return postgresUrl(at);
  }

  @Override
  protected LockBackend backendOn(HikariDataSource pool) {
    return JdbcLockBackend.builder(pool).commandTimeout(Duration.ofSeconds(2)).build();
  }

  @Test
  void theWarmUpOpensThePoolsFirstConnection() throws Exception {
    LockBackend b = newBackend(serverAddress());
    try {
      HikariDataSource pool = poolOf(b);
      assertThat(pool.getHikariPoolMXBean()).as("a fresh pool is not started").isNull();
      TestTiming.get(((JdbcLockBackend) b).warmUp(), BOUND);
      assertThat(pool.getHikariPoolMXBean().getTotalConnections()).isEqualTo(1);
    } finally {
      closeBackend(b);
    }
  }

  @Test
  void aMissingTableFailsTheWarmUpWithOther() {
    try (JdbcLockBackend b = TestDatabase.backend().table("no_such_table").build()) {
      Throwable t = TestTiming.get(b.warmUp().handle((v, e) -> e), BOUND);
      Throwable cause = t instanceof CompletionException c ? c.getCause() : t;
      assertThat(cause).isInstanceOf(LockBackendException.class);
      assertThat(((LockBackendException) cause).kind()).isEqualTo(LockFailureKind.OTHER);
      assertThat(cause.getMessage()).contains("42P01"); // undefined_table
    }
  }
}
