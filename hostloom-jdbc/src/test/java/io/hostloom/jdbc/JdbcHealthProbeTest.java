package io.hostloom.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariDataSource;
import io.hostloom.locking.spi.BackendHealth;
import io.hostloom.locking.spi.LockBackend;
import io.hostloom.testkit.capability.HealthProbeSuite;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@link JdbcLockBackend#checkHealth()} (one query on the lock table) against the shared real
 * server, each instance over a pool of its own at the address the testkit's {@link
 * HealthProbeSuite} gives; the probe is bounded by the command timeout.
 */
class JdbcHealthProbeTest extends HealthProbeSuite {
  private final Map<LockBackend, HikariDataSource> pools = new HashMap<>();

  @Override
  protected InetSocketAddress serverAddress() {
    return new InetSocketAddress("127.0.0.1", TestDatabase.server().port());
  }

  @Override
  protected LockBackend newBackend(InetSocketAddress at) {
    HikariDataSource pool = new HikariDataSource();
    pool.setJdbcUrl(
        "jdbc:postgresql://" + at.getHostString() + ":" + at.getPort() + "/" + TestDatabase.NAME);
    pool.setUsername("postgres");
    pool.setMaximumPoolSize(2);
    pool.setMinimumIdle(0);
    pool.setConnectionTimeout(1000);
    pool.setValidationTimeout(500);
    pool.setInitializationFailTimeout(-1);
    JdbcLockBackend backend =
        JdbcLockBackend.builder(pool).commandTimeout(Duration.ofSeconds(2)).build();
    pools.put(backend, pool);
    return backend;
  }

  @Override
  protected void closeBackend(LockBackend instance) {
    ((JdbcLockBackend) instance).close();
    pools.remove(instance).close();
  }

  @Test
  void theHealthyDescriptionNamesTheTable() {
    BackendHealth h = probe(instance(serverAddress()), serverAddress());
    assertThat(h.description()).isEqualTo("postgresql: \"public\".\"hostloom_locks\" reachable");
  }

  @Test
  void theUnreachableDescriptionStartsWithTheKind() {
    InetSocketAddress nowhere = new InetSocketAddress("127.0.0.1", closedPort());
    BackendHealth h = probe(instance(nowhere), nowhere);
    assertThat(h.description()).startsWith("postgresql: UNAVAILABLE");
  }
}
